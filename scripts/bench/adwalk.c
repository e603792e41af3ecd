/* The AD benchmark's floor: a minimal bounds-checked C walk of the same typed fields (name, 16/32/128-bit UUID lists,
 * service data, manufacturer data, TX power; Core Supplement v11 Part A) over an ADC1 corpus (see make_corpus.py).
 * Usage: adwalk CORPUS [PASSES]; prints `c-walk NS_PER_AD CHECKSUM` for the best of PASSES (default 5). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct fields { const uint8_t *name; int name_len; int uuids; int service_data; int manufacturer; int tx_power; uint32_t sum; };

static void walk(const uint8_t *p, size_t n, struct fields *f) {
    size_t i = 0;
    while (i < n) {
        size_t len = p[i];
        if (len == 0 || i + 1 + len > n) break; /* padding or a structure past the end */
        const uint8_t type = p[i + 1], *v = p + i + 2;
        size_t vlen = len - 1;
        switch (type) {
        case 0x08: case 0x09: f->name = v; f->name_len = (int)vlen; break;
        case 0x02: case 0x03: for (size_t k = 0; k + 2 <= vlen; k += 2) { f->uuids++; f->sum += v[k] | v[k + 1] << 8; } break;
        case 0x04: case 0x05: for (size_t k = 0; k + 4 <= vlen; k += 4) { f->uuids++; f->sum += v[k]; } break;
        case 0x06: case 0x07: for (size_t k = 0; k + 16 <= vlen; k += 16) { f->uuids++; f->sum += v[k]; } break;
        case 0x16: if (vlen >= 2) { f->service_data++; f->sum += v[0] | v[1] << 8; } break;
        case 0x20: if (vlen >= 4) { f->service_data++; f->sum += v[0]; } break;
        case 0x21: if (vlen >= 16) { f->service_data++; f->sum += v[0]; } break;
        case 0xFF: if (vlen >= 2) { f->manufacturer++; f->sum += v[0] | v[1] << 8; } break;
        case 0x0A: if (vlen >= 1) { f->tx_power = (int8_t)v[0]; } break;
        default: break;
        }
        i += 1 + len;
    }
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: adwalk CORPUS [PASSES]\n"); return 2; }
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 1; }
    fseek(file, 0, SEEK_END); long size = ftell(file); fseek(file, 0, SEEK_SET);
    uint8_t *data = malloc((size_t)size);
    if (!data || fread(data, 1, (size_t)size, file) != (size_t)size || size < 8 || memcmp(data, "ADC1", 4) != 0) { fprintf(stderr, "bad corpus\n"); return 1; }
    fclose(file);
    uint32_t count; memcpy(&count, data + 4, 4);
    int passes = argc > 2 ? atoi(argv[2]) : 5;
    double best = 1e30; uint64_t checksum = 0;
    for (int pass = 0; pass < passes; pass++) {
        struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
        uint64_t total = 0; size_t off = 8;
        for (uint32_t r = 0; r < count && off + 2 <= (size_t)size; r++) {
            size_t len = data[off] | data[off + 1] << 8;
            if (off + 2 + len > (size_t)size) break;
            struct fields f = {0};
            walk(data + off + 2, len, &f);
            total += (uint64_t)f.uuids + f.service_data + f.manufacturer + (f.name != NULL) + (f.tx_power != 0) + f.sum;
            off += 2 + len;
        }
        clock_gettime(CLOCK_MONOTONIC, &b);
        double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
        if (ns < best) best = ns;
        checksum = total;
    }
    printf("c-walk %.1f %llu\n", best / count, (unsigned long long)checksum);
    return 0;
}
