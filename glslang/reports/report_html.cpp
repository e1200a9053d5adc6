// FormatHtmlReport: the report as one self-contained HTML page (see report_format.h).
//
// Layout: a header (flags, versions), a summary (counts per kind of finding, pass
// statistics), then each source file as a table of numbered lines; under a line that
// has findings, a row lists them with their detail and, for diagnostics, the reason
// chain with each located step linked to its line. Diagnostics a uniformity filter
// silenced are shown greyed, with the filter and its justification, and counted apart. Findings that name no line (or a
// file not among the sources) are listed at the end. The page is complete without
// JavaScript; a small inline script only adds filter buttons and "next finding".
#include <charconv>
#include <cstring>
#include <map>
#include <string_view>

#include "glint/report_format.h"
#include "glslang/reports/report_findings.h"
#include "glslang/reports/report_text.h"

namespace glint {
namespace {

using report::Finding;
using report::FindingKind;

const char* const kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:0 1.5em 3em;color:#1d1d1f;background:#fff}
h1{font-size:1.5em;margin:.8em 0 .2em}h2{font-size:1.15em;margin:1.4em 0 .4em}
.meta{color:#555}code,pre,.src{font-family:ui-monospace,Menlo,Consolas,monospace}
table.counts,table.passes{border-collapse:collapse;margin:.3em 2em .3em 0;display:inline-table;vertical-align:top}
table.counts td,table.counts th,table.passes td,table.passes th{border:1px solid #ccc;padding:.2em .6em;text-align:left}
table.code{border-collapse:collapse;width:100%}
td.ln{color:#888;text-align:right;padding-right:.8em;user-select:none;width:3.5em;vertical-align:top}
td.ln a{color:inherit;text-decoration:none}
td.src{white-space:pre-wrap;word-break:break-all}
tr.marked td.src{background:#fff8e0}tr.line:target td{background:#ffe08a}
tr.findings td{padding:0 0 .4em}ul.findings{margin:.1em 0;padding-left:1.2em}
li.finding{margin:.15em 0}li.finding:target{outline:2px solid #e0a000}
.badge{display:inline-block;min-width:6.5em;border-radius:3px;padding:0 .4em;margin-right:.4em;font-size:.85em;color:#fff;text-align:center}
.clamped .badge{background:#c05a00}.proven .badge{background:#2b7a2b}.not-clamped .badge,.range .badge{background:#6b6b6b}
.table .badge{background:#2660a4}.warning .badge{background:#b58900}.error .badge{background:#b00020}.note .badge{background:#777}
.suppressed{color:#777}.suppressed .badge{background:#aaa}.suppressed-by{font-style:italic}
.detail{color:#444}ol.reasons{margin:.1em 0 .2em;color:#333}
.no-lines{padding:.6em;border:1px solid #b58900;background:#fff8e0}
body.show-clamped li.finding:not(.clamped),body.show-problems li.finding:not(.warning):not(.error){display:none}
nav#filters button{margin-right:.4em}
)";

const char* const kScript = R"(
(function(){
  var nav=document.getElementById('filters');nav.hidden=false;
  function show(mode){document.body.className=mode?'show-'+mode:'';}
  nav.querySelector('[data-show=all]').onclick=function(){show('');};
  nav.querySelector('[data-show=clamped]').onclick=function(){show('clamped');};
  nav.querySelector('[data-show=problems]').onclick=function(){show('problems');};
  var at=-1;
  nav.querySelector('[data-next]').onclick=function(){
    var all=[].slice.call(document.querySelectorAll('li.finding')).filter(function(e){return e.offsetParent!==null;});
    if(!all.length)return;at=(at+1)%all.length;location.hash=all[at].id;};
})();
)";

// Text written HTML-escaped, straight into the page: `out_ << Escaped{name}`.
struct Escaped {
  std::string_view text;
};

text::TextBuilder& operator<<(text::TextBuilder& out, Escaped escaped) {
  text::AppendHtml(out.Text(), escaped.text);
  return out;
}

// The longest opening of a row up to its line number (see AppendLineRow).
constexpr size_t kMaxRowOpen = 64;

// The line of `source` that starts at `at` as a table row; returns where the next
// line starts. `open` is the row's markup up to the line number:
//   <tr class="line" id="f0-L12"><td class="ln">12</td><td class="src">TEXT</td></tr>
// (`open` is `<tr class="line" id="f0-L` here).
// A large source is nearly all such rows, so the markup before the text is put
// together in a buffer and appended once (one append per piece cost more than the
// escaping of the line).
size_t AppendLineRow(std::string& out, std::string_view open, uint32_t line,
                     std::string_view source, size_t at) {
  char row[kMaxRowOpen + 64];
  char* end = row;
  const auto put = [&end](std::string_view piece) {
    std::memcpy(end, piece.data(), piece.size());
    end += piece.size();
  };
  put(open);  // at most kMaxRowOpen bytes: WriteSource asserts it
  char* number = end;
  end = std::to_chars(end, end + 10, line).ptr;
  std::string_view digits(number, size_t(end - number));
  put("\"><td class=\"ln\">");
  put(digits);
  put("</td><td class=\"src\">");
  out.append(row, size_t(end - row));
  at = text::AppendHtmlLine(out, source, at);
  out.append("</td></tr>\n");
  return at;
}

// Where a finding or reason step is shown: source index and line, or none.
struct Anchor {
  int source = -1;
  uint32_t line = 0;
  bool valid() const { return source >= 0; }
};

class HtmlWriter {
 public:
  HtmlWriter(const Report& report, const ReportContext& context)
      : report_(report), context_(context), findings_(report::CollectFindings(report)) {
    for (size_t i = 0; i < context.sources.size(); ++i)
      source_index_[context.sources[i].name] = int(i);
    line_counts_.assign(context.sources.size(), kNotCounted);
    PlaceFindings();
  }

  std::string Write() {
    out_.Reserve(EstimatedSize());
    WriteHead();
    WriteSummary();
    for (size_t i = 0; i < context_.sources.size(); ++i) WriteSource(int(i));
    WriteUnplaced();
    out_ << "<script>" << kScript << "</script>\n</body>\n</html>\n";
    return out_.Take();
  }

 private:
  // The page is the sources plus the markup of each line (under 80 bytes up to line
  // 99,999) and of each finding: reserved once, since growing a large page copies it.
  size_t EstimatedSize() const {
    size_t bytes = 16384 + 512 * findings_.size();
    for (const ReportSource& source : context_.sources) {
      bytes += source.text.size() + 80;
      for (const char *at = source.text.data(), *end = at + source.text.size();
           (at = static_cast<const char*>(std::memchr(at, '\n', size_t(end - at)))) != nullptr;
           ++at)
        bytes += 80;
    }
    return bytes;
  }

  // Counted only for sources that findings point into (SplitLines builds a view of
  // every line; a large source without findings needs none).
  size_t LineCount(int source) {
    if (line_counts_[source] == kNotCounted)
      line_counts_[source] = text::SplitLines(context_.sources[source].text).size();
    return line_counts_[source];
  }

  Anchor AnchorOf(const SourceLocation& location) {
    auto it = source_index_.find(location.file);
    if (it == source_index_.end() || location.line == 0 || location.line > LineCount(it->second))
      return {};
    return {it->second, location.line};
  }

  void PlaceFindings() {
    for (size_t i = 0; i < findings_.size(); ++i) {
      Anchor anchor = AnchorOf(findings_[i].location);
      if (anchor.valid())
        placed_[{anchor.source, anchor.line}].push_back(i);
      else
        unplaced_.push_back(i);
    }
  }

  static std::string LineId(int source, uint32_t line) {
    return "f" + std::to_string(source) + "-L" + std::to_string(line);
  }

  void WriteHead() {
    out_ << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         << "<meta name=\"viewport\" content=\"width=device-width\">\n"
         << "<title>Glint report: " << Escaped{context_.title} << "</title>\n"
         << "<style>" << kStyle << "</style>\n</head>\n<body>\n"
         << "<h1>Glint report: " << Escaped{context_.title} << "</h1>\n<p class=\"meta\">"
         << "Flags: <code id=\"flags\">" << Escaped{context_.command_line} << "</code><br>"
         << "Glint " << Escaped{context_.glint_version} << " &middot; glslang "
         << Escaped{context_.glslang_version} << "</p>\n";
  }

  void WriteSummary() {
    std::map<FindingKind, size_t> counts;
    for (const Finding& finding : findings_) ++counts[finding.kind];
    out_ << "<section id=\"summary\">\n<h2>Summary</h2>\n<table class=\"counts\">\n"
         << "<tr><th>Finding</th><th>Count</th></tr>\n";
    static const std::pair<FindingKind, const char*> kRows[] = {
        {FindingKind::kClamped, "accesses clamped"},
        {FindingKind::kProven, "accesses proven in bounds"},
        {FindingKind::kUnclamped, "accesses not clamped"},
        {FindingKind::kRangeOnly, "accesses (ranges only)"},
        {FindingKind::kTable, "constant tables hoisted"},
        {FindingKind::kError, "errors"},
        {FindingKind::kWarning, "warnings"},
        {FindingKind::kNote, "notes"},
        {FindingKind::kSuppressed, "suppressed by uniformity filters"}};
    for (const auto& [kind, label] : kRows)
      out_ << "<tr data-kind=\"" << report::KindName(kind) << "\"><td>" << label
           << "</td><td class=\"count\">" << counts[kind] << "</td></tr>\n";
    out_ << "</table>\n";
    WritePassTable();
    out_ << "<nav id=\"filters\" hidden><button data-show=\"all\">Show all</button>"
         << "<button data-show=\"clamped\">Only clamped</button>"
         << "<button data-show=\"problems\">Only warnings and errors</button>"
         << "<button data-next>Next finding</button></nav>\n</section>\n";
    if (!context_.has_line_information)
      out_ << "<p class=\"no-lines\" id=\"no-lines\">The module carries no line information "
              "(no OpLine or OpSource), so findings cannot be shown on source lines; they are "
              "listed below.</p>\n";
  }

  void WritePassTable() {
    out_ << "<table class=\"passes\">\n<tr><th>Pass</th><th>Changed</th><th>Rewrites</th></tr>\n";
    for (const PassStatistic& pass : report_.passes)
      out_ << "<tr><td>" << Escaped{pass.pass} << "</td><td>" << (pass.changed ? "yes" : "no")
           << "</td><td>" << pass.rewrites << "</td></tr>\n";
    out_ << "</table>\n";
  }

  // Every line of the source, numbered, each followed by the row of its findings. The
  // line number is plain text (an id to link to, not a link: half the markup).
  void WriteSource(int index) {
    const std::string& text = context_.sources[index].text;
    out_ << "<section class=\"source\" id=\"f" << index << "\">\n<h2>"
         << Escaped{context_.sources[index].name} << "</h2>\n<table class=\"code\">\n";
    const std::string id = std::to_string(index) + "-L";
    const std::string plain_row = "<tr class=\"line\" id=\"f" + id,
                      marked_row = "<tr class=\"line marked\" id=\"f" + id;
    static_assert(sizeof "<tr class=\"line marked\" id=\"f-L" + 11 <= kMaxRowOpen,
                  "an int's digits fit");
    auto next = placed_.lower_bound({index, 0});  // placed_ is ordered by source, then line
    uint32_t line = 0;
    for (size_t at = 0; at < text.size();) {
      ++line;
      bool marked = next != placed_.end() && next->first == std::make_pair(index, line);
      at = AppendLineRow(out_.Text(), marked ? marked_row : plain_row, line, text, at);
      if (marked) WriteFindingRow((next++)->second);
    }
    out_ << "</table>\n</section>\n";
  }

  void WriteFindingRow(const std::vector<size_t>& indices) {
    out_ << "<tr class=\"findings\"><td></td><td><ul class=\"findings\">\n";
    for (size_t i : indices) WriteFinding(i);
    out_ << "</ul></td></tr>\n";
  }

  void WriteFinding(size_t i) {
    const Finding& finding = findings_[i];
    const char* kind = report::KindName(finding.kind);
    out_ << "<li class=\"finding " << kind << "\" id=\"finding-" << i << "\" data-kind=\"" << kind
         << "\" data-rule=\"" << Escaped{finding.rule} << "\"><span class=\"badge\">" << kind
         << "</span>";
    if (!AnchorOf(finding.location).valid() && finding.location.line)
      out_ << "<code>" << Escaped{finding.location.file} << ":" << finding.location.line
           << "</code> ";
    out_ << Escaped{finding.title};
    if (!finding.detail.empty())
      out_ << " <span class=\"detail\">&mdash; " << Escaped{finding.detail} << "</span>";
    if (finding.kind == FindingKind::kSuppressed) {
      out_ << " <span class=\"suppressed-by\">&mdash; suppressed by <code>"
           << Escaped{finding.suppressed_by} << "</code>";
      if (!finding.justification.empty()) out_ << ": " << Escaped{finding.justification};
      out_ << "</span>";
    }
    WriteSteps(finding);
    out_ << "</li>\n";
  }

  void WriteSteps(const Finding& finding) {
    if (finding.steps.empty()) return;
    out_ << "<ol class=\"reasons\">";
    for (const report::ReasonStep& step : finding.steps) {
      Anchor anchor = AnchorOf(step.location);
      if (anchor.valid())
        out_ << "<li><a class=\"step\" href=\"#" << LineId(anchor.source, anchor.line) << "\">"
             << Escaped{step.text} << "</a></li>";
      else
        out_ << "<li>" << Escaped{step.text} << "</li>";
    }
    out_ << "</ol>";
  }

  void WriteUnplaced() {
    if (unplaced_.empty()) return;
    out_ << "<section id=\"unplaced\">\n<h2>Findings without a source line</h2>\n<ul "
            "class=\"findings\">\n";
    for (size_t i : unplaced_) WriteFinding(i);
    out_ << "</ul>\n</section>\n";
  }

  const Report& report_;
  const ReportContext& context_;
  std::vector<Finding> findings_;
  std::map<std::string, int> source_index_;
  static constexpr size_t kNotCounted = ~size_t(0);
  std::vector<size_t> line_counts_;  // per source; kNotCounted until asked
  std::map<std::pair<int, uint32_t>, std::vector<size_t>> placed_;
  std::vector<size_t> unplaced_;
  text::TextBuilder out_;
};

}  // namespace

std::string FormatHtmlReport(const Report& report, const ReportContext& context) {
  return HtmlWriter(report, context).Write();
}

}  // namespace glint
