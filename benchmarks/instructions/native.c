/* The C counterpart of Program.cs: the same loops, calling libzmq directly, so that measure.sh can set the binding's
 * instructions per message beside what a C program spends around the same libzmq calls. Draft functions are looked up at
 * run time (as benchmarks/native/nzmq_native.c does), so the program builds against any zmq.h.
 *   native span|message|clientserver-span|clientserver|radiodish COUNT [SIZE]
 * Exit codes: 0 every byte arrived, 1 a call failed or bytes are missing, 2 usage, 3 no draft API for a draft mode. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#define GROUP "g"

static int (*join) (void *socket, const char *group);
static int (*msg_set_group) (zmq_msg_t *msg, const char *group);

static void fail (const char *what)
{
    fprintf (stderr, "%s: %s\n", what, zmq_strerror (zmq_errno ()));
    exit (1);
}

/* zmq_send + zmq_recv of one frame each turn. */
static long long span_loop (void *sender, void *receiver, const char *payload, int size, int count)
{
    char buffer[128];
    long long bytes = 0;
    for (int i = 0; i < count; i++) {
        if (zmq_send (sender, payload, (size_t) size, 0) < 0)
            fail ("zmq_send");
        int n = zmq_recv (receiver, buffer, sizeof buffer, 0);
        if (n < 0)
            fail ("zmq_recv");
        bytes += n;
    }
    return bytes;
}

/* A message rebuilt from the payload each turn (the group set on it when group is not NULL), sent, and received into
 * one reused message: what Rebuild + SetGroup + Send(Message) + Recv(Message) do. */
static long long message_loop (void *sender, void *receiver, const char *payload, int size, int count, const char *group)
{
    zmq_msg_t outgoing, incoming;
    zmq_msg_init (&outgoing);
    zmq_msg_init (&incoming);
    long long bytes = 0;
    for (int i = 0; i < count; i++) {
        zmq_msg_close (&outgoing);
        if (zmq_msg_init_size (&outgoing, (size_t) size) != 0)
            fail ("zmq_msg_init_size");
        memcpy (zmq_msg_data (&outgoing), payload, (size_t) size);
        if (group && msg_set_group (&outgoing, group) != 0)
            fail ("zmq_msg_set_group");
        if (zmq_msg_send (&outgoing, sender, 0) < 0)
            fail ("zmq_msg_send");
        if (zmq_msg_recv (&incoming, receiver, 0) < 0)
            fail ("zmq_msg_recv");
        bytes += (long long) zmq_msg_size (&incoming);
    }
    zmq_msg_close (&outgoing);
    zmq_msg_close (&incoming);
    return bytes;
}

/* The DISH's join reaches the RADIO through the pipe: until it has, the RADIO drops what it sends to the group. */
static void wait_for_join (void *radio, void *dish)
{
    zmq_pollitem_t item = {dish, 0, ZMQ_POLLIN, 0};
    for (int attempt = 0; attempt < 10000; attempt++) {
        zmq_msg_t probe;
        zmq_msg_init (&probe);
        if (msg_set_group (&probe, GROUP) != 0 || zmq_msg_send (&probe, radio, 0) < 0)
            fail ("probe");
        if (zmq_poll (&item, 1, 1) == 1) {
            if (zmq_msg_recv (&probe, dish, 0) < 0)
                fail ("probe receive");
            zmq_msg_close (&probe);
            return;
        }
    }
    fprintf (stderr, "the DISH's join never reached the RADIO\n");
    exit (1);
}

int main (int argc, char **argv)
{
    const char *modes[] = {"span", "message", "clientserver-span", "clientserver", "radiodish"};
    int mode = -1, count = 0, size = 64;
    for (int i = 0; argc >= 3 && i < 5; i++)
        if (strcmp (argv[1], modes[i]) == 0)
            mode = i;
    if (argc >= 3)
        count = atoi (argv[2]);
    if (argc == 4)
        size = atoi (argv[3]);
    if (mode < 0 || count < 1 || argc > 4 || size < 0 || size > 128) {
        fprintf (stderr, "usage: native span|message|clientserver-span|clientserver|radiodish COUNT [SIZE, 0 to 128]\n");
        return 2;
    }

    int draft = mode >= 2, radio = mode == 4;
    join = (int (*) (void *, const char *)) dlsym (RTLD_DEFAULT, "zmq_join");
    msg_set_group = (int (*) (zmq_msg_t *, const char *)) dlsym (RTLD_DEFAULT, "zmq_msg_set_group");
    if (draft && (!join || !msg_set_group || !zmq_has ("draft"))) {
        fprintf (stderr, "the %s mode needs a libzmq with the draft API\n", modes[mode]);
        return 3;
    }

    /* ZMQ_PUSH/PULL and the draft numbers (zmq.h names the draft ones only with ZMQ_BUILD_DRAFT_API). */
    int sender_type = !draft ? ZMQ_PUSH : radio ? 14 : 13;   /* RADIO, CLIENT */
    int receiver_type = !draft ? ZMQ_PULL : radio ? 15 : 12; /* DISH, SERVER */
    void *context = zmq_ctx_new ();
    void *sender = zmq_socket (context, sender_type);
    void *receiver = zmq_socket (context, receiver_type);
    int timeout = 10000;
    zmq_setsockopt (sender, ZMQ_SNDTIMEO, &timeout, sizeof timeout);
    zmq_setsockopt (receiver, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    /* A RADIO drops at the high-water mark like PUB unless XPUB_NODROP; one that only learns of the DISH's reads now and
     * then would drop messages of this loop. */
    int nodrop = 1;
    if (radio && zmq_setsockopt (sender, ZMQ_XPUB_NODROP, &nodrop, sizeof nodrop) != 0)
        fail ("ZMQ_XPUB_NODROP");
    if (zmq_bind (receiver, "inproc://instructions") != 0)
        fail ("zmq_bind");
    if (radio && join (receiver, GROUP) != 0)
        fail ("zmq_join");
    if (zmq_connect (sender, "inproc://instructions") != 0)
        fail ("zmq_connect");
    if (radio)
        wait_for_join (sender, receiver);

    char payload[128] = {0};
    long long bytes = mode == 0 || mode == 2 ? span_loop (sender, receiver, payload, size, count)
                                             : message_loop (sender, receiver, payload, size, count, radio ? GROUP : NULL);
    zmq_close (sender);
    zmq_close (receiver);
    zmq_ctx_term (context);
    if (bytes != (long long) size * count) {
        fprintf (stderr, "received %lld bytes, expected %lld\n", bytes, (long long) size * count);
        return 1;
    }
    return 0;
}
