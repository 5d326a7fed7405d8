/*
 * The workloads of link/benches/link.rs (see workloads.rs) on the reference
 * C library `reliable`, timed the same way: each workload runs in rounds of
 * a fixed number of iterations after a warm-up, and the median round's
 * nanoseconds per operation are printed, one line each:
 *
 *     reference <workload> <ns per operation>
 *
 * Built and run by versus.sh against a checkout of the library.
 */
#include "reliable.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Not in reliable.h, but exported by reliable.c. */
int reliable_write_packet_header(uint8_t *packet_data, uint16_t sequence, uint16_t ack, uint32_t ack_bits);
int reliable_read_packet_header(RELIABLE_CONST char *name, uint8_t *packet_data, int packet_bytes,
                                uint16_t *sequence, uint16_t *ack, uint32_t *ack_bits);

#define HEADERS 512
#define SMALL_PACKET 100
#define LARGE_PACKET 4000
#define ROUNDS 31

static const uint32_t ACK_BITS[8] = {0xFFFFFFFFu, 0u, 0xFFFFFF00u, 0x00FFFFFFu,
                                     0xDEADBEEFu, 0x0000FFFFu, 0x12345678u, 0xFF00FF00u};

static void triple(int i, uint16_t *sequence, uint16_t *ack, uint32_t *ack_bits) {
    *sequence = (uint16_t)((i * 131) % 65536);
    *ack = (uint16_t)(*sequence - (uint16_t)((i * 37) % 600));
    *ack_bits = ACK_BITS[i % 8];
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static volatile uint64_t sink;

/* The median over ROUNDS of ns per operation of `work(iterations)`, which
 * performs `per_call` operations per iteration. */
static double median_ns(void (*work)(int), int iterations, int per_call) {
    double samples[ROUNDS];
    work(iterations); /* warm-up */
    for (int r = 0; r < ROUNDS; r++) {
        double start = now_ns();
        work(iterations);
        samples[r] = (now_ns() - start) / ((double)iterations * per_call);
    }
    qsort(samples, ROUNDS, sizeof(double), compare);
    return samples[ROUNDS / 2];
}

static uint16_t sequences[HEADERS], acks[HEADERS];
static uint32_t bits[HEADERS];
static uint8_t encoded[HEADERS][16];
static int encoded_bytes[HEADERS];

static void header_write(int iterations) {
    uint8_t out[16];
    uint64_t total = 0;
    for (int n = 0; n < iterations; n++)
        for (int i = 0; i < HEADERS; i++) {
            total += reliable_write_packet_header(out, sequences[i], acks[i], bits[i]);
            sink += out[0];
        }
    sink += total;
}

static void header_read(int iterations) {
    uint32_t total = 0;
    for (int n = 0; n < iterations; n++)
        for (int i = 0; i < HEADERS; i++) {
            uint16_t s, a;
            uint32_t b;
            int len = reliable_read_packet_header("bench", encoded[i], encoded_bytes[i], &s, &a, &b);
            if (len > 0) total += b + (uint32_t)len;
        }
    sink += total;
}

static struct reliable_endpoint_t *sender, *receiver;
static uint8_t payload[LARGE_PACKET];
static uint64_t delivered;

static void transmit(void *context, uint64_t id, uint16_t sequence, uint8_t *data, int bytes) {
    (void)context; (void)id; (void)sequence;
    reliable_endpoint_receive_packet(receiver, data, bytes);
}

static int process(void *context, uint64_t id, uint16_t sequence, uint8_t *data, int bytes) {
    (void)context; (void)id; (void)sequence; (void)data;
    delivered += (uint64_t)bytes;
    return 1;
}

static int packet_bytes;

static void send_through(int iterations) {
    for (int n = 0; n < iterations; n++) reliable_endpoint_send_packet(sender, payload, packet_bytes);
}

static struct reliable_endpoint_t *endpoint(void) {
    struct reliable_config_t config;
    reliable_default_config(&config);
    config.transmit_packet_function = transmit;
    config.process_packet_function = process;
    return reliable_endpoint_create(&config, 0.0);
}

int main(void) {
    reliable_init();
    for (int i = 0; i < HEADERS; i++) {
        triple(i, &sequences[i], &acks[i], &bits[i]);
        encoded_bytes[i] = reliable_write_packet_header(encoded[i], sequences[i], acks[i], bits[i]);
    }
    printf("reference header-write %.3f\n", median_ns(header_write, 200, HEADERS));
    printf("reference header-read %.3f\n", median_ns(header_read, 200, HEADERS));
    for (int i = 0; i < LARGE_PACKET; i++) payload[i] = (uint8_t)(i * 7);
    const char *names[2] = {"small-packet", "fragmented-packet"};
    const int sizes[2] = {SMALL_PACKET, LARGE_PACKET};
    for (int w = 0; w < 2; w++) {
        sender = endpoint();
        receiver = endpoint();
        packet_bytes = sizes[w];
        delivered = 0;
        double ns = median_ns(send_through, 20000, 1);
        if (delivered < (uint64_t)packet_bytes * 20000) {
            fprintf(stderr, "%s: nothing delivered\n", names[w]);
            return 1;
        }
        printf("reference %s %.3f\n", names[w], ns);
        reliable_endpoint_destroy(sender);
        reliable_endpoint_destroy(receiver);
    }
    reliable_term();
    return 0;
}
