/* Smoke test of one libzmq build, run on its own platform (natively, under qemu-aarch64 or under wine):
 * the version and capabilities, a CURVE handshake approved by a ZAP handler, a message over ipc, the draft API
 * (CLIENT/SERVER through zmq_poller, routing ids), and on Linux the settings libzmq's CMake switches off silently when its
 * run-checks are skipped: I/O thread names and TCP keepalive tuning. Prints one line per check; exits 0 only if all pass.
 * Every receive has a timeout, so a broken build fails instead of hanging. */
#define ZMQ_BUILD_DRAFT_API
#include <zmq.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <winsock2.h>
#include <process.h>
#define getpid _getpid
#else
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

#define TIMEOUT_MS 10000

static int failures = 0;

#define CHECK(condition, what)                                                                 \
    do {                                                                                       \
        if (!(condition)) {                                                                    \
            printf("FAILED: %s (%s; errno %d: %s)\n", what, #condition, zmq_errno(),           \
                   zmq_strerror(zmq_errno()));                                                 \
            failures++;                                                                        \
            return;                                                                            \
        }                                                                                      \
    } while (0)

static void *new_socket(void *context, int type)
{
    void *socket = zmq_socket(context, type);
    int timeout = TIMEOUT_MS, linger = 0;
    if (socket) {
        zmq_setsockopt(socket, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
        zmq_setsockopt(socket, ZMQ_SNDTIMEO, &timeout, sizeof timeout);
        zmq_setsockopt(socket, ZMQ_LINGER, &linger, sizeof linger);
    }
    return socket;
}

static int recv_string(void *socket, char *buffer, size_t size)
{
    int n = zmq_recv(socket, buffer, size - 1, 0);
    if (n >= 0)
        buffer[n < (int) size - 1 ? n : (int) size - 1] = '\0';
    return n;
}

static void check_capabilities(void)
{
    int major, minor, patch;
    zmq_version(&major, &minor, &patch);
    printf("libzmq %d.%d.%d: draft=%d curve=%d ipc=%d gssapi=%d pgm=%d norm=%d tipc=%d\n", major, minor, patch,
           zmq_has("draft"), zmq_has("curve"), zmq_has("ipc"), zmq_has("gssapi"), zmq_has("pgm"), zmq_has("norm"),
           zmq_has("tipc"));
    CHECK(major == 4 && minor >= 3, "libzmq 4.3 or later");
    CHECK(zmq_has("draft") == 1, "draft API");
    CHECK(zmq_has("curve") == 1, "CURVE");
#ifdef _WIN32
    /* The Windows builds leave ipc out (docs/platforms.md, "ipc on Windows"): with it, every context's internal
       signalling pair is an AF_UNIX pair with no fallback once bind succeeds, which aborts the process on some machines. */
    CHECK(zmq_has("ipc") == 0, "no ipc transport in the Windows build");
#else
    CHECK(zmq_has("ipc") == 1, "ipc transport");
#endif
}

/* ZAP (RFC 27): one request in, one reply out, status 200 for the expected client key, 400 otherwise. */
static int serve_zap(void *handler, const char *client_public_z85, char *user_id_out, size_t user_id_size)
{
    zmq_msg_t frames[7];
    char version[8], request_id[64], mechanism[16];
    uint8_t client_key[32];
    int i, ok = 1;
    for (i = 0; i < 7; i++) {
        zmq_msg_init(&frames[i]);
        if (zmq_msg_recv(&frames[i], handler, 0) < 0)
            ok = 0;
        if (!ok)
            break;
    }
    if (!ok || zmq_msg_size(&frames[6]) != 32)
        return -1;
    snprintf(version, sizeof version, "%.*s", (int) zmq_msg_size(&frames[0]), (char *) zmq_msg_data(&frames[0]));
    snprintf(request_id, sizeof request_id, "%.*s", (int) zmq_msg_size(&frames[1]), (char *) zmq_msg_data(&frames[1]));
    snprintf(mechanism, sizeof mechanism, "%.*s", (int) zmq_msg_size(&frames[5]), (char *) zmq_msg_data(&frames[5]));
    zmq_z85_decode(client_key, client_public_z85);
    int accepted = strcmp(version, "1.0") == 0 && strcmp(mechanism, "CURVE") == 0
                   && memcmp(zmq_msg_data(&frames[6]), client_key, 32) == 0;
    snprintf(user_id_out, user_id_size, "%s", accepted ? "smoke-client" : "");
    zmq_send(handler, version, strlen(version), ZMQ_SNDMORE);
    zmq_send(handler, request_id, strlen(request_id), ZMQ_SNDMORE);
    zmq_send(handler, accepted ? "200" : "400", 3, ZMQ_SNDMORE);
    zmq_send(handler, accepted ? "OK" : "denied", accepted ? 2 : 6, ZMQ_SNDMORE);
    zmq_send(handler, user_id_out, strlen(user_id_out), ZMQ_SNDMORE);
    zmq_send(handler, "", 0, 0);
    for (i = 0; i < 7; i++)
        zmq_msg_close(&frames[i]);
    return accepted;
}

static void check_curve_with_zap(void *context)
{
    char server_public[41], server_secret[41], client_public[41], client_secret[41], user_id[64], text[64];
    CHECK(zmq_curve_keypair(server_public, server_secret) == 0, "zmq_curve_keypair (server)");
    CHECK(zmq_curve_keypair(client_public, client_secret) == 0, "zmq_curve_keypair (client)");

    void *zap = new_socket(context, ZMQ_REP);
    CHECK(zap && zmq_bind(zap, "inproc://zeromq.zap.01") == 0, "bind the ZAP handler");

    void *server = new_socket(context, ZMQ_REP);
    int as_server = 1;
    CHECK(server, "server socket");
    CHECK(zmq_setsockopt(server, ZMQ_CURVE_SERVER, &as_server, sizeof as_server) == 0, "ZMQ_CURVE_SERVER");
    CHECK(zmq_setsockopt(server, ZMQ_CURVE_SECRETKEY, server_secret, 40) == 0, "ZMQ_CURVE_SECRETKEY");
    CHECK(zmq_setsockopt(server, ZMQ_ZAP_DOMAIN, "smoke", 5) == 0, "ZMQ_ZAP_DOMAIN");
    CHECK(zmq_bind(server, "tcp://127.0.0.1:*") == 0, "bind tcp://127.0.0.1:*");
    char endpoint[256];
    size_t endpoint_size = sizeof endpoint;
    CHECK(zmq_getsockopt(server, ZMQ_LAST_ENDPOINT, endpoint, &endpoint_size) == 0, "ZMQ_LAST_ENDPOINT");

    void *client = new_socket(context, ZMQ_REQ);
    CHECK(client, "client socket");
    CHECK(zmq_setsockopt(client, ZMQ_CURVE_SERVERKEY, server_public, 40) == 0, "ZMQ_CURVE_SERVERKEY");
    CHECK(zmq_setsockopt(client, ZMQ_CURVE_PUBLICKEY, client_public, 40) == 0, "ZMQ_CURVE_PUBLICKEY");
    CHECK(zmq_setsockopt(client, ZMQ_CURVE_SECRETKEY, client_secret, 40) == 0, "ZMQ_CURVE_SECRETKEY");
    CHECK(zmq_connect(client, endpoint) == 0, "connect");
    CHECK(zmq_send(client, "sealed", 6, 0) == 6, "send over CURVE");

    CHECK(serve_zap(zap, client_public, user_id, sizeof user_id) == 1, "ZAP request for the client's key");

    zmq_msg_t message;
    zmq_msg_init(&message);
    CHECK(zmq_msg_recv(&message, server, 0) == 6, "receive over CURVE");
    const char *seen_user = zmq_msg_gets(&message, "User-Id");
    CHECK(seen_user && strcmp(seen_user, "smoke-client") == 0, "User-Id metadata set by ZAP");
    CHECK(memcmp(zmq_msg_data(&message), "sealed", 6) == 0, "payload over CURVE");
    zmq_msg_close(&message);
    CHECK(zmq_send(server, "opened", 6, 0) == 6, "reply over CURVE");
    CHECK(recv_string(client, text, sizeof text) == 6 && strcmp(text, "opened") == 0, "reply received");
    printf("curve: handshake with ZAP ok (domain smoke, User-Id %s), %s\n", seen_user ? "smoke-client" : "?", endpoint);

    zmq_close(client);
    zmq_close(server);
    zmq_close(zap);
}

static void check_ipc(void *context)
{
    char endpoint[128], text[64];
    snprintf(endpoint, sizeof endpoint, "ipc://zmq-smoke-%d.ipc", (int) getpid());
    void *pull = new_socket(context, ZMQ_PULL);
    void *push = new_socket(context, ZMQ_PUSH);
    CHECK(pull && push, "ipc sockets");
#ifdef _WIN32
    /* Built without ipc: an ipc endpoint is refused with EPROTONOSUPPORT (which NetZeroMQ reports as a ZmqException). */
    CHECK(zmq_bind(pull, endpoint) == -1 && zmq_errno() == EPROTONOSUPPORT, "bind ipc fails with EPROTONOSUPPORT");
    CHECK(zmq_connect(push, endpoint) == -1 && zmq_errno() == EPROTONOSUPPORT, "connect ipc fails with EPROTONOSUPPORT");
    printf("ipc: not built (Windows): bind and connect fail with EPROTONOSUPPORT\n");
    zmq_close(push);
    zmq_close(pull);
    return;
#endif
    CHECK(zmq_bind(pull, endpoint) == 0, "bind ipc");
    CHECK(zmq_connect(push, endpoint) == 0, "connect ipc");
    CHECK(zmq_send(push, "over ipc", 8, 0) == 8, "send over ipc");
    CHECK(recv_string(pull, text, sizeof text) == 8 && strcmp(text, "over ipc") == 0, "receive over ipc");
    printf("ipc: ok (%s)\n", endpoint);
    zmq_close(push);
    zmq_close(pull);
}

static void check_draft(void *context)
{
    char text[64];
    void *server = new_socket(context, ZMQ_SERVER);
    void *client = new_socket(context, ZMQ_CLIENT);
    CHECK(server && client, "CLIENT and SERVER sockets (draft)");
    CHECK(zmq_bind(server, "inproc://smoke-draft") == 0, "bind SERVER");
    CHECK(zmq_connect(client, "inproc://smoke-draft") == 0, "connect CLIENT");
    CHECK(zmq_send(client, "hello", 5, 0) == 5, "CLIENT send");

    void *poller = zmq_poller_new();
    CHECK(poller, "zmq_poller_new (draft)");
    CHECK(zmq_poller_add(poller, server, NULL, ZMQ_POLLIN) == 0, "zmq_poller_add");
    zmq_poller_event_t event;
    CHECK(zmq_poller_wait(poller, &event, TIMEOUT_MS) == 0 && event.socket == server, "zmq_poller_wait");

    zmq_msg_t message;
    zmq_msg_init(&message);
    CHECK(zmq_msg_recv(&message, server, 0) == 5, "SERVER receive");
    uint32_t routing_id = zmq_msg_routing_id(&message);
    CHECK(routing_id != 0, "zmq_msg_routing_id (draft)");
    zmq_msg_close(&message);
    zmq_msg_init_size(&message, 5);
    memcpy(zmq_msg_data(&message), "world", 5);
    CHECK(zmq_msg_set_routing_id(&message, routing_id) == 0, "zmq_msg_set_routing_id");
    CHECK(zmq_msg_send(&message, server, 0) == 5, "SERVER reply");
    CHECK(recv_string(client, text, sizeof text) == 5 && strcmp(text, "world") == 0, "CLIENT receive");
    printf("draft: CLIENT/SERVER through zmq_poller ok (routing id %u)\n", (unsigned) routing_id);
    zmq_poller_destroy(&poller);
    zmq_close(client);
    zmq_close(server);
}

#ifndef _WIN32
/* The I/O and reaper threads are named ZMQbg/... only if CMake detected pthread_setname_np. */
static void check_thread_names(void)
{
    char names[512] = "";
    int named = 0;
    DIR *tasks = opendir("/proc/self/task");
    CHECK(tasks, "open /proc/self/task");
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        char path[300], name[64] = "";
        if (entry->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", entry->d_name);
        FILE *comm = fopen(path, "r");
        if (!comm)
            continue;
        if (fgets(name, sizeof name, comm))
            name[strcspn(name, "\n")] = '\0';
        fclose(comm);
        if (strncmp(name, "ZMQbg/", 6) == 0) {
            named++;
            strncat(names, " ", sizeof names - strlen(names) - 1);
            strncat(names, name, sizeof names - strlen(names) - 1);
        }
    }
    closedir(tasks);
    CHECK(named >= 2, "I/O and reaper threads named ZMQbg/...");
    printf("thread names:%s\n", names);
}

/* ZMQ_TCP_KEEPALIVE_IDLE reaches the TCP socket only if CMake detected TCP_KEEPIDLE: find the socket and read it back. */
static void check_tcp_keepalive(void *context)
{
    const int idle = 4242, on = 1;
    void *pull = new_socket(context, ZMQ_PULL);
    void *push = new_socket(context, ZMQ_PUSH);
    CHECK(pull && push, "tcp sockets");
    CHECK(zmq_setsockopt(push, ZMQ_TCP_KEEPALIVE, &on, sizeof on) == 0, "ZMQ_TCP_KEEPALIVE");
    CHECK(zmq_setsockopt(push, ZMQ_TCP_KEEPALIVE_IDLE, &idle, sizeof idle) == 0, "ZMQ_TCP_KEEPALIVE_IDLE");
    CHECK(zmq_bind(pull, "tcp://127.0.0.1:*") == 0, "bind tcp");
    char endpoint[256], text[16];
    size_t endpoint_size = sizeof endpoint;
    zmq_getsockopt(pull, ZMQ_LAST_ENDPOINT, endpoint, &endpoint_size);
    CHECK(zmq_connect(push, endpoint) == 0, "connect tcp");
    CHECK(zmq_send(push, "k", 1, 0) == 1 && recv_string(pull, text, sizeof text) == 1, "message over tcp");

    int found = -1, cloexec = 0;
    DIR *fds = opendir("/proc/self/fd");
    CHECK(fds, "open /proc/self/fd");
    struct dirent *entry;
    while ((entry = readdir(fds)) != NULL && found < 0) {
        int fd = atoi(entry->d_name), value = 0, keepalive = 0;
        socklen_t length = sizeof value;
        if (entry->d_name[0] == '.')
            continue;
        if (getsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &value, &length) == 0 && value == idle) {
            length = sizeof keepalive;
            getsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &keepalive, &length);
            if (keepalive) {
                found = fd;
                cloexec = (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0;
            }
        }
    }
    closedir(fds);
    CHECK(found >= 0, "a TCP socket with SO_KEEPALIVE and the TCP_KEEPIDLE that was set");
    CHECK(cloexec, "FD_CLOEXEC on libzmq's TCP socket");
    printf("tcp keepalive: SO_KEEPALIVE on, TCP_KEEPIDLE %d on fd %d, close-on-exec\n", idle, found);
    zmq_close(push);
    zmq_close(pull);
}
#endif

int main(void)
{
    void *context = zmq_ctx_new();
    if (!context) {
        printf("FAILED: zmq_ctx_new\n");
        return 1;
    }
    check_capabilities();
    check_curve_with_zap(context);
    check_ipc(context);
    check_draft(context);
#ifndef _WIN32
    check_thread_names();
    check_tcp_keepalive(context);
#endif
    if (failures != 0) {
        /* A failed check may have left sockets open, and zmq_ctx_term would wait for them forever. */
        printf("smoke: %d check(s) FAILED\n", failures);
        return 1;
    }
    zmq_ctx_term(context);
    printf("smoke: all checks passed\n");
    return 0;
}
