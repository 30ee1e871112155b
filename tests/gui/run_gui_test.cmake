# Runs a scripted GUI session under Xvfb, then checks the screenshots it wrote.
# -DXVFB_RUN= -DVEDETTE= -DCHECK= -DOUT=<screenshot folder> -DARGS=<vedette arguments, ;-list>
# -DCHECKS=<kind;file;kind;file...> (files relative to OUT) [-DENV=NAME=VALUE]
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(ENV{VEDETTE_DATA_DIR} ${OUT}/data)
# -DENV=NAME=VALUE (optional): one more environment variable for vedette.
if(ENV MATCHES "^([A-Z_]+)=(.*)$")
  set(ENV{${CMAKE_MATCH_1}} "${CMAKE_MATCH_2}")
endif()
execute_process(
  COMMAND ${XVFB_RUN} -a -s "-screen 0 1600x1000x24" ${VEDETTE} ${ARGS} --size 1600x1000
  WORKING_DIRECTORY ${OUT}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vedette ${ARGS} failed with ${rc}")
endif()
set(check_args)
set(kind "")
foreach(item IN LISTS CHECKS)
  if(kind STREQUAL "")
    set(kind ${item})
  else()
    list(APPEND check_args ${kind} ${OUT}/${item})
    set(kind "")
  endif()
endforeach()
execute_process(COMMAND ${CHECK} ${check_args} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "screenshot check failed")
endif()
