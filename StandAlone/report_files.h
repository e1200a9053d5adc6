// --report=html FILE and --report=sarif FILE: what one glslangValidator run found, as
// an HTML page and as SARIF, written when the run ends (atomically, like the other
// outputs). The records come from every stage and every .spv input of the run.
#ifndef GLINT_STANDALONE_REPORT_FILES_H
#define GLINT_STANDALONE_REPORT_FILES_H

#include <string>
#include <vector>

#include "command_line.h"
#include "glint/report_format.h"

namespace glint::standalone {

// What the run found, collected as it goes.
struct RunReport {
  Report records;
  std::vector<ReportSource> sources;
  bool has_line_information = true;

  void Add(const Report& report);
  // A source the records may name; read from disk when `text` is not known, as a
  // regular file of at most `max_bytes` (the run's --max-source-bytes): one that is not
  // is listed without its text.
  void AddSource(const std::string& name, const std::string* text,
                 uint64_t max_bytes = GLINT_MAX_SOURCE_BYTES);
};

// Writes the reports the command line asks for. Returns false (after printing
// "ERROR: cannot open/write ..." naming the file and why) when one cannot be written.
bool WriteReportFiles(const CommandLine& line, int argc, char** argv, const RunReport& run);

}  // namespace glint::standalone

#endif  // GLINT_STANDALONE_REPORT_FILES_H
