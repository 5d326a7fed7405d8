/*
 * A live endpoint of the reference C library `reliable`, driven line by
 * line over stdin and stdout by link/tests/c_peer.rs. Bytes travel as hex.
 *
 *   new ID SEND_FROM EXPECT_FROM MAX_PACKET FRAGMENT_ABOVE FRAGMENT_SIZE
 *       MAX_FRAGMENTS SENT_WINDOW RECEIVED_WINDOW REASSEMBLY_WINDOW ACK_BUFFER
 *                        -> "ok"
 *   send ID HEX          -> "tx HEX" for each datagram, then "sent SEQUENCE"
 *   recv ID HEX          -> "offer SEQUENCE TAKEN HEX" for a whole packet
 *                           handed to the application, then "acks[ SEQ]..."
 *                           (the acks this datagram brought; then cleared)
 *   quit
 *
 * The application declines (returns 0 for) a packet whose first byte is
 * 0xDE, as the Rust side's does. SEND_FROM and EXPECT_FROM start the
 * endpoint's own sequence and its windows of received packets and of
 * reassembly where link's `set_next_sequence` and `expect_peer_from` do;
 * the library has no call for it, so this file includes reliable.c to
 * reach its state.
 */
#include "reliable.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENDPOINTS 8

static struct reliable_endpoint_t *endpoints[ENDPOINTS];
static uint64_t ids[ENDPOINTS];

static void put_hex(const uint8_t *bytes, int length) {
    for (int i = 0; i < length; i++)
        printf("%02x", bytes[i]);
}

static void transmit(void *context, uint64_t id, uint16_t sequence, uint8_t *data, int bytes) {
    (void)context;
    (void)id;
    (void)sequence;
    printf("tx ");
    put_hex(data, bytes);
    printf("\n");
}

static int process(void *context, uint64_t id, uint16_t sequence, uint8_t *data, int bytes) {
    (void)context;
    (void)id;
    int taken = !(bytes > 0 && data[0] == 0xDE);
    printf("offer %u %d ", sequence, taken);
    put_hex(data, bytes);
    printf("\n");
    return taken;
}

static int from_hex(const char *text, uint8_t *out, int capacity) {
    int length = 0;
    while (text[0] && text[1] && text[0] != '\n') {
        unsigned value;
        if (length >= capacity || sscanf(text, "%2x", &value) != 1)
            return -1;
        out[length++] = (uint8_t)value;
        text += 2;
    }
    return length;
}

static void fail(const char *why) {
    fprintf(stderr, "peer: %s\n", why);
    exit(2);
}

static struct reliable_endpoint_t *endpoint_at(int id) {
    if (id < 0 || id >= ENDPOINTS || !endpoints[id])
        fail("no such endpoint");
    return endpoints[id];
}

static void create(const char *arguments) {
    int id;
    unsigned send_from, expect_from;
    struct reliable_config_t config;
    reliable_default_config(&config);
    if (sscanf(arguments, "%d %u %u %d %d %d %d %d %d %d %d", &id, &send_from, &expect_from,
               &config.max_packet_size, &config.fragment_above, &config.fragment_size,
               &config.max_fragments, &config.sent_packets_buffer_size,
               &config.received_packets_buffer_size,
               &config.fragment_reassembly_buffer_size, &config.ack_buffer_size) != 11 ||
        id < 0 || id >= ENDPOINTS)
        fail("bad new");
    if (endpoints[id])
        reliable_endpoint_destroy(endpoints[id]);
    ids[id] = (uint64_t)id;
    config.id = ids[id];
    config.transmit_packet_function = transmit;
    config.process_packet_function = process;
    struct reliable_endpoint_t *endpoint = reliable_endpoint_create(&config, 0.0);
    if (!endpoint)
        fail("create failed");
    endpoint->sequence = (uint16_t)send_from;
    endpoint->sent_packets->sequence = (uint16_t)send_from;
    endpoint->received_packets->sequence = (uint16_t)expect_from;
    endpoint->fragment_reassembly->sequence = (uint16_t)expect_from;
    endpoints[id] = endpoint;
    printf("ok\n");
}

int main(void) {
    char *line = NULL;
    size_t capacity = 0;
    static uint8_t bytes[1 << 20];
    reliable_log_level(RELIABLE_LOG_LEVEL_NONE);
    while (getline(&line, &capacity, stdin) > 0) {
        int id, offset;
        if (strncmp(line, "new ", 4) == 0) {
            create(line + 4);
        } else if (sscanf(line, "send %d %n", &id, &offset) == 1) {
            struct reliable_endpoint_t *endpoint = endpoint_at(id);
            int length = from_hex(line + offset, bytes, (int)sizeof bytes);
            if (length <= 0)
                fail("bad send");
            uint16_t sequence = reliable_endpoint_next_packet_sequence(endpoint);
            reliable_endpoint_send_packet(endpoint, bytes, length);
            printf("sent %u\n", sequence);
        } else if (sscanf(line, "recv %d %n", &id, &offset) == 1) {
            struct reliable_endpoint_t *endpoint = endpoint_at(id);
            int length = from_hex(line + offset, bytes, (int)sizeof bytes);
            if (length <= 0)
                fail("bad recv");
            reliable_endpoint_receive_packet(endpoint, bytes, length);
            int count;
            uint16_t *acks = reliable_endpoint_get_acks(endpoint, &count);
            printf("acks");
            for (int i = 0; i < count; i++)
                printf(" %u", acks[i]);
            printf("\n");
            reliable_endpoint_clear_acks(endpoint);
        } else if (strncmp(line, "quit", 4) == 0) {
            break;
        } else {
            fail("unknown command");
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
