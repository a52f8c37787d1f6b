# libzmq's CMakeLists.txt runs its platform run-checks (check_c_source_runs) only when not cross-compiling; a cross build
# that does not set them gets TCP keepalive tuning, SOCK_CLOEXEC, SO_PRIORITY and thread names silently switched off.
# These are the results of those checks on Linux with glibc 2.17 (what the linux-x64 build measures natively; the
# native-all job compares the two builds' generated platform.hpp and fails on any difference).
set(ZMQ_HAVE_SOCK_CLOEXEC 1 CACHE INTERNAL "")
set(ZMQ_HAVE_O_CLOEXEC 1 CACHE INTERNAL "")
set(ZMQ_HAVE_EVENTFD_CLOEXEC 1 CACHE INTERNAL "")
set(ZMQ_HAVE_SO_BINDTODEVICE 1 CACHE INTERNAL "")
set(ZMQ_HAVE_SO_KEEPALIVE 1 CACHE INTERNAL "")
set(ZMQ_HAVE_SO_PRIORITY 1 CACHE INTERNAL "")
set(ZMQ_HAVE_TCP_KEEPCNT 1 CACHE INTERNAL "")
set(ZMQ_HAVE_TCP_KEEPIDLE 1 CACHE INTERNAL "")
set(ZMQ_HAVE_TCP_KEEPINTVL 1 CACHE INTERNAL "")
set(ZMQ_HAVE_PTHREAD_SETNAME_2 1 CACHE INTERNAL "")
set(ZMQ_HAVE_PTHREAD_SET_AFFINITY 1 CACHE INTERNAL "")
