/* See sys/socket.h beside this file: AF_UNIX's sockaddr_un comes from afunix.h on Windows. */
#include <winsock2.h>
#include <afunix.h>
