# The corpus suite's one configuration point: GLINT_CORPUS, a folder of third-party
# shaders laid out as docs/CORPUS.md says. Every test that needs real shaders reads the
# folder from here (gtests through GLINT_CORPUS_DIR, scripts through their arguments) and
# is registered, with the ctest label `corpus`, only when it is set. Without it those
# tests are not registered at all, so nothing about the corpus is counted as passed;
# a disabled placeholder test says in ctest's summary that the suite did not run.
#
# Default: the environment variable GLINT_CORPUS when set (it also overrides an earlier
# configure), else the corpus folder our own machines keep beside the checkout. CI
# (.ci/run) sets GLINT_REQUIRE_CORPUS=1: then configuring without a corpus fails.
set(_glint_corpus_beside "${GLINT_SOURCE_ROOT}/../shared/corpus")
if(DEFINED ENV{GLINT_CORPUS})
  set(GLINT_CORPUS "$ENV{GLINT_CORPUS}" CACHE PATH "Corpus folder (docs/CORPUS.md)" FORCE)
elseif(IS_DIRECTORY "${_glint_corpus_beside}")
  get_filename_component(_glint_corpus_beside "${_glint_corpus_beside}" ABSOLUTE)
  set(GLINT_CORPUS "${_glint_corpus_beside}" CACHE PATH "Corpus folder (docs/CORPUS.md)")
else()
  set(GLINT_CORPUS "" CACHE PATH "Corpus folder (docs/CORPUS.md)")
endif()

if(GLINT_CORPUS)
  get_filename_component(GLINT_CORPUS "${GLINT_CORPUS}" ABSOLUTE)
  file(GLOB _glint_corpus_manifests "${GLINT_CORPUS}/*/OK_manifest.tsv")
  if(NOT _glint_corpus_manifests)
    message(FATAL_ERROR "GLINT_CORPUS=${GLINT_CORPUS}: no <folder>/OK_manifest.tsv there "
                        "(docs/CORPUS.md says what a corpus holds); unset it to build without "
                        "the corpus suite")
  endif()
  message(STATUS "Corpus suite: ON, GLINT_CORPUS=${GLINT_CORPUS}")
elseif("$ENV{GLINT_REQUIRE_CORPUS}" STREQUAL "1")
  message(FATAL_ERROR "GLINT_REQUIRE_CORPUS=1 (CI) but no corpus: set GLINT_CORPUS=DIR "
                      "(docs/CORPUS.md)")
else()
  message(STATUS "Corpus suite: OFF, not registered: no corpus (set GLINT_CORPUS=DIR, "
                 "see docs/CORPUS.md)")
endif()

# GoogleTest names of the corpus tests: their suite name starts with Corpus (after an
# instantiation prefix for parameterized ones). The same suites' other tests are plain.
set(GLINT_CORPUS_GTESTS "Corpus*:*/Corpus*")
