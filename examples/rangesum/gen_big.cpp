// Generator of "rangesum" for the largest tests: `gen_big N Q V [full] SEED` prints exactly
// n = N values in -V..V and q = Q queries (with `full`, every query the whole array). Its own
// SplitMix64 stream: the same bytes on every compiler and library.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static uint64_t state;

static uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// A value in lo..hi; the slight bias of a modulus does not matter to a test.
static long long between(long long lo, long long hi) {
    return lo + (long long)(next() % (uint64_t)(hi - lo + 1));
}

int main(int argc, char **argv) {
    bool full = argc == 6 && std::strcmp(argv[4], "full") == 0;
    if (argc != 5 && !full) {
        std::fprintf(stderr, "usage: gen_big N Q V [full] SEED\n");
        return 1;
    }
    long long n = std::atoll(argv[1]), q = std::atoll(argv[2]), v = std::atoll(argv[3]);
    state = std::strtoull(argv[argc - 1], nullptr, 10);
    std::printf("%lld %lld\n", n, q);
    for (long long i = 0; i < n; i++)
        std::printf(i + 1 < n ? "%lld " : "%lld\n", between(-v, v));
    for (long long i = 0; i < q; i++) {
        long long l = full ? 1 : between(1, n);
        std::printf("%lld %lld\n", l, full ? n : between(l, n));
    }
}
