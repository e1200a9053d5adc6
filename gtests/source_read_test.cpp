// Tests of the bounded reads (glslang/front_end/source_read.h): a regular file at and over its
// limit (refused from its size), a directory, a FIFO refused where only regular files
// are allowed and read within the limit where streams are, a descriptor, and the
// per-compile budget. Every file is made in a private temporary directory.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "glslang/front_end/source_read.h"

namespace glint::frontend {
namespace {

namespace fs = std::filesystem;

class SourceRead : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "glint-source-read-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(root_ + "/" + name, std::ios::binary) << text;
    return root_ + "/" + name;
  }
  std::string root_;
};

TEST_F(SourceRead, RegularFile_AtTheLimitIsRead_OverItIsRefusedUnread) {
  std::string path = Write("ten.glsl", "0123456789");
  std::string content;
  EXPECT_EQ(ReadFileWithin(path, 10, FileKinds::kRegularOnly, "the limit", &content), "");
  EXPECT_EQ(content, "0123456789");
  content.clear();
  EXPECT_EQ(ReadFileWithin(path, 9, FileKinds::kAnyButDirectory, "the limit", &content),
            "larger than 9 bytes, the limit");
  EXPECT_EQ(content, "");
  // A sparse file far over the limit is refused from its size alone.
  std::string huge = Write("huge.glsl", "");
  fs::resize_file(huge, uint64_t{1} << 40);
  EXPECT_EQ(ReadFileWithin(huge, 1 << 20, FileKinds::kRegularOnly, "the limit", &content),
            "larger than 1048576 bytes, the limit");
}

TEST_F(SourceRead, DirectoryAndMissingFile_SayWhy) {
  std::string content;
  bool open_failed = false;
  EXPECT_EQ(ReadFileWithin(root_, 100, FileKinds::kAnyButDirectory, "x", &content, &open_failed),
            "Is a directory");
  EXPECT_FALSE(open_failed);
  EXPECT_EQ(ReadFileWithin(root_ + "/missing", 100, FileKinds::kAnyButDirectory, "x", &content,
                           &open_failed),
            "No such file or directory");
  EXPECT_TRUE(open_failed);
}

// A FIFO is refused at once where only regular files may be read (no writer is waited
// for), and read up to the limit plus one byte where streams are allowed.
TEST_F(SourceRead, Fifo_RefusedOrReadWithinTheLimit) {
  std::string fifo = root_ + "/stream.glsl";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string content;
  EXPECT_EQ(ReadFileWithin(fifo, 100, FileKinds::kRegularOnly, "x", &content),
            "not a regular file");
  signal(SIGPIPE, SIG_IGN);  // the reader may close before the last chunk: EPIPE
  std::thread writer([&] {
    int fd = open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
    std::string chunk(1000, 'a');
    for (int i = 0; i < 5 && write(fd, chunk.data(), chunk.size()) > 0; ++i) {
    }
    close(fd);
  });
  EXPECT_EQ(ReadFileWithin(fifo, 2500, FileKinds::kAnyButDirectory, "the limit", &content),
            "larger than 2500 bytes, the limit");
  writer.join();
  EXPECT_EQ(content, "");
}

TEST_F(SourceRead, Descriptor_RegularFileRefusedFromItsSize) {
  std::string path = Write("stdin.glsl", std::string(300, 'x'));
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  std::string content;
  EXPECT_EQ(ReadDescriptorWithin(fd, 299, "the limit", &content),
            "larger than 299 bytes, the limit");
  EXPECT_EQ(ReadDescriptorWithin(fd, 300, "the limit", &content), "");
  EXPECT_EQ(content.size(), 300u);
  close(fd);
}

TEST(SourceBudget, TheSmallerOfPerSourceAndWhatIsLeftOfTheTotal) {
  SourceBudget budget({100, 250});
  EXPECT_EQ(budget.NextLimit(), 100u);
  EXPECT_STREQ(budget.NextLimitName(), kSourceLimitName);
  EXPECT_TRUE(budget.Take(100));
  EXPECT_TRUE(budget.Take(100));
  EXPECT_EQ(budget.NextLimit(), 50u);
  EXPECT_STREQ(budget.NextLimitName(), kTotalSourceLimitName);
  EXPECT_FALSE(budget.Take(51));
  EXPECT_TRUE(budget.Take(50));
  EXPECT_EQ(budget.NextLimit(), 0u);
}

}  // namespace
}  // namespace glint::frontend
