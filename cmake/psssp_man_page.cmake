# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Man pages that share paragraphs, as infiniband-diags' man/common/opt_*.rst
# do: a line
#   .\" include man/opt_grid.1in
# stands for that file (named from the page's folder) without its leading
# comment lines (the licence line). psssp_man_pages assembles such pages when
# CMake configures; the tests run the same code as a script:
#   cmake -DIN=scripts/check-fabric.1 -DOUT=/tmp/check-fabric.1 -P cmake/psssp_man_page.cmake

set(PSSSP_MAN_INCLUDE_RE "\\.\\\\\" include ([^\n]+)")

# psssp_assemble_man_page(PAGE OUT [PARTS_VAR]): writes PAGE with its
# includes filled in to OUT (only when that changes OUT); PARTS_VAR gets the
# included files. A page without includes is written as it is.
function(psssp_assemble_man_page page out)
  file(READ "${page}" text)
  get_filename_component(dir "${page}" DIRECTORY)
  string(REGEX MATCHALL "${PSSSP_MAN_INCLUDE_RE}" directives "${text}")
  set(parts)
  foreach(directive IN LISTS directives)
    string(REGEX REPLACE "${PSSSP_MAN_INCLUDE_RE}" "\\1" name "${directive}")
    set(part "${dir}/${name}")
    if(NOT EXISTS "${part}")
      message(FATAL_ERROR "${page}: includes ${name}, which does not exist (${part})")
    endif()
    file(READ "${part}" body)
    string(REGEX REPLACE "^(\\.\\\\\"[^\n]*\n)+" "" body "${body}")
    string(REPLACE "${directive}\n" "${body}" text "${text}")
    list(APPEND parts "${part}")
  endforeach()
  set(old "")
  if(EXISTS "${out}")
    file(READ "${out}" old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE "${out}" "${text}")
  endif()
  if(ARGC GREATER 2)
    set(${ARGV2} ${parts} PARENT_SCOPE)
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT IN OR NOT OUT)
    message(FATAL_ERROR "usage: cmake -DIN=PAGE -DOUT=FILE -P ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  psssp_assemble_man_page("${IN}" "${OUT}")
endif()
