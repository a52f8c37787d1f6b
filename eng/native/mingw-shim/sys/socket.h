/* libzmq 4.3.4's ipc transport includes <sys/socket.h> and <sys/un.h> except for MSVC, which gets <afunix.h> (the
   Windows 10 AF_UNIX header). mingw-w64 has afunix.h but no sys/ headers: these two stand in for them. */
#include <winsock2.h>
#include <ws2tcpip.h>
