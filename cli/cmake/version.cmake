# Writes cbi/cli/version.hpp with the commit of the source tree as it is built (cmake -P, run by
# the cbi_version target at every build, so a commit after configuring is named): "-dirty" marks
# uncommitted changes, "unknown" a tree without git. configure_file leaves the file untouched when
# nothing changed, so nothing recompiles.
# Inputs: SOURCE_DIR, GIT_EXECUTABLE (may be empty), IN, OUT, PROJECT_VERSION, CMAKE_BUILD_TYPE.
set(CBI_GIT_COMMIT "unknown")
if(GIT_EXECUTABLE)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE commit RESULT_VARIABLE commit_rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(commit_rc EQUAL 0)
    set(CBI_GIT_COMMIT "${commit}")
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} diff --quiet HEAD --
                    RESULT_VARIABLE dirty_rc OUTPUT_QUIET ERROR_QUIET)
    if(NOT dirty_rc EQUAL 0)
      string(APPEND CBI_GIT_COMMIT "-dirty")
    endif()
  endif()
endif()
configure_file(${IN} ${OUT} @ONLY)
