# SyclDeviceLink: link a target's SYCL device code with sycbuild.
#
#   sycbuild_device_link(<target>
#     CONFIG <targets.yaml>          # the build description (required)
#     [INPUTS <device IR>...]        # .ll/.bc files; default: the config's inputs
#     [SPLIT off|per_source|per_kernel|auto]   # default: the config's split
#     [TARGETS <name>...]            # build only these of the config's targets
#     [OUTPUT <object>]              # default: <binary dir>/<target>.sycbuild/device_images.o
#     [BUILD_DIR <dir>]              # default: <binary dir>/<target>.sycbuild
#     [JOBS <n>])                    # jobs sycbuild runs at once (sycbuild -j); default below
#
# adds a custom command that runs
#
#   sycbuild -config <CONFIG> -o <OUTPUT> -build-dir <BUILD_DIR> -M <OUTPUT>.d <INPUTS>
#
# and links the object it writes into <target>. sycbuild's depfile (-M)
# names the config, every device input and the files they name, so the
# command re-runs when any of them changes, also when INPUTS is not given.
# Relative paths are relative to the current source directory.
#
# The sycbuild executable is SYCBUILD_EXECUTABLE (a cache variable; found on
# PATH when not set).
#
# Jobs: JOBS <n> runs n jobs, whatever runs the build. Without it, the
# command is marked JOB_SERVER_AWARE where CMake has it (3.28 and later), so
# that under "make -jN" (the Makefiles generators) sycbuild shares make's job
# slots: make and sycbuild together run at most N jobs. Older CMake cannot
# ask make for its job slots (make gives them only to recipes marked '+'),
# so there sycbuild runs one job per CPU of its own, beside make's jobs;
# under Ninja, which shares no job slots, it does too.

find_program(SYCBUILD_EXECUTABLE sycbuild DOC "the sycbuild executable (the SYCL device-code link stage)")

function(sycbuild_device_link target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "CONFIG;SPLIT;OUTPUT;BUILD_DIR;JOBS" "INPUTS;TARGETS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "sycbuild_device_link(${target}): unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_CONFIG)
    message(FATAL_ERROR "sycbuild_device_link(${target}): CONFIG <targets.yaml> is required")
  endif()
  if(NOT SYCBUILD_EXECUTABLE)
    message(FATAL_ERROR "sycbuild_device_link(${target}): sycbuild not found; set SYCBUILD_EXECUTABLE to its path")
  endif()

  cmake_path(ABSOLUTE_PATH ARG_CONFIG BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE OUTPUT_VARIABLE config)
  if(NOT ARG_BUILD_DIR)
    set(ARG_BUILD_DIR "${CMAKE_CURRENT_BINARY_DIR}/${target}.sycbuild")
  endif()
  cmake_path(ABSOLUTE_PATH ARG_BUILD_DIR BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" NORMALIZE OUTPUT_VARIABLE build_dir)
  if(NOT ARG_OUTPUT)
    set(ARG_OUTPUT "${build_dir}/device_images.o")
  endif()
  cmake_path(ABSOLUTE_PATH ARG_OUTPUT BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" NORMALIZE OUTPUT_VARIABLE output)

  set(inputs "")
  foreach(in IN LISTS ARG_INPUTS)
    cmake_path(ABSOLUTE_PATH in BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE OUTPUT_VARIABLE abs)
    list(APPEND inputs "${abs}")
  endforeach()
  set(flags "")
  if(ARG_SPLIT)
    list(APPEND flags -split "${ARG_SPLIT}")
  endif()
  if(ARG_TARGETS)
    list(JOIN ARG_TARGETS "," names)
    list(APPEND flags -targets "${names}")
  endif()
  set(job_server "")
  if(ARG_JOBS)
    if(NOT ARG_JOBS MATCHES "^[1-9][0-9]*$")
      message(FATAL_ERROR "sycbuild_device_link(${target}): JOBS ${ARG_JOBS}: want a number of jobs, 1 or more")
    endif()
    list(APPEND flags -j "${ARG_JOBS}")
  elseif(CMAKE_VERSION VERSION_GREATER_EQUAL 3.28)
    set(job_server JOB_SERVER_AWARE TRUE)
  elseif(CMAKE_GENERATOR MATCHES "Makefiles")
    # make's jobserver is closed to this recipe: sycbuild would fall back
    # to one job at a time. One per CPU instead.
    cmake_host_system_information(RESULT cpus QUERY NUMBER_OF_LOGICAL_CORES)
    list(APPEND flags -j "${cpus}")
  endif()

  # sycbuild leaves an object whose content did not change untouched. Ninja
  # (CMake gives custom commands restat = 1) then skips what depends on it;
  # make compares times only, so there the object is touched, or make would
  # run sycbuild again on every build.
  set(touch "")
  if(NOT CMAKE_GENERATOR MATCHES "Ninja")
    set(touch COMMAND "${CMAKE_COMMAND}" -E touch_nocreate "${output}")
  endif()
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${SYCBUILD_EXECUTABLE}" -config "${config}" -o "${output}" -build-dir "${build_dir}"
            -M "${output}.d" ${flags} ${inputs}
    ${touch}
    DEPENDS "${config}" ${inputs} "${SYCBUILD_EXECUTABLE}"
    DEPFILE "${output}.d"
    COMMENT "Linking SYCL device code of ${target} with sycbuild"
    ${job_server}
    VERBATIM)
  set_source_files_properties("${output}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  target_sources(${target} PRIVATE "${output}")
endfunction()
