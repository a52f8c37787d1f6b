/* libzmq's bundled wepoll names this header as Windows' case-insensitive file system allows; mingw-w64 installs it in
   lower case, and Linux file names are case-sensitive. */
#include <ws2tcpip.h>
