# Runs the scripted GUI session under Xvfb, then checks the screenshots it wrote.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(ENV{VEDETTE_DATA_DIR} ${OUT}/data)
execute_process(
  COMMAND ${XVFB_RUN} -a -s "-screen 0 1600x1000x24"
          ${VEDETTE} ${SOURCE_DIR}/tests/fixtures/fixture_module --scenario basic --seed 7
          --size 1600x1000 --script ${SOURCE_DIR}/tests/gui/full_turn.txt
  WORKING_DIRECTORY ${OUT}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vedette --script failed with ${rc}")
endif()
execute_process(
  COMMAND ${CHECK}
    game ${OUT}/01_start.png
    game ${OUT}/02_selected.png
    game ${OUT}/03_moved.png
    game ${OUT}/04_combat.png
    handover ${OUT}/05_handover.png
    game ${OUT}/06_defend.png
    game ${OUT}/07_turn_done.png
    game ${OUT}/08_replay_end.png
    game ${OUT}/09_replay_back.png
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "screenshot check failed")
endif()
