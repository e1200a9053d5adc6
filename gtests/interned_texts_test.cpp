// InternedTexts (SPIRV/analysis/facts/interned_texts.h): each distinct text held once, numbered
// in the order first interned, and given back as it was.
#include "SPIRV/analysis/facts/interned_texts.h"

#include <gtest/gtest.h>

#include <string>

namespace glint::spirv {
namespace {

TEST(InternedTexts, ATextInternedAgainKeepsItsNumber) {
  InternedTexts texts;
  EXPECT_EQ(texts.Intern("value read from Uniform memory"), 0u);
  EXPECT_EQ(texts.Intern("gl_LocalInvocationID differs between invocations"), 1u);
  std::string again = "value read from Uniform memory";  // another buffer, the same text
  EXPECT_EQ(texts.Intern(again), 0u);
  EXPECT_EQ(texts.size(), 2u);
  EXPECT_EQ(texts.Text(1), "gl_LocalInvocationID differs between invocations");
}

TEST(InternedTexts, TextsStayValidAsMoreAreInterned) {
  InternedTexts texts;
  const std::string& first = texts.Text(texts.Intern("first"));
  for (int i = 0; i < 10000; ++i) texts.Intern("text number " + std::to_string(i));
  EXPECT_EQ(first, "first");
  EXPECT_EQ(texts.Intern("text number 9999"), 10000u);
  EXPECT_EQ(texts.Intern("first"), 0u) << "the index still finds the first text";
}

TEST(InternedTexts, TheEmptyTextIsATextLikeAnyOther) {
  InternedTexts texts;
  EXPECT_EQ(texts.Intern(""), 0u);
  EXPECT_EQ(texts.Intern("x"), 1u);
  EXPECT_EQ(texts.Intern(""), 0u);
  EXPECT_EQ(texts.Text(0), "");
}

}  // namespace
}  // namespace glint::spirv
