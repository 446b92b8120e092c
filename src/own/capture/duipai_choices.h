/* duipai's recorder of a C or C++ generator's random choices.
 *
 * duipai force-includes this header (`-include`) when it builds a generator's source to
 * record or replay its choices: C's rand(), the <random> engines std::mt19937,
 * std::mt19937_64 and std::default_random_engine, std::uniform_int_distribution, and, through
 * the copy of the generator's own testlib.h duipai includes after it, testlib's rnd. Without
 * DUIPAI_CHOICES in the environment every draw is the library's own.
 *
 * - DUIPAI_CHOICES=record: every draw is the library's, so the generator prints exactly
 *   what it prints without duipai; the draws are written to DUIPAI_CHOICES_OUT, one a line:
 *   `LABEL MAX VALUE` (LABEL is where the generator drew, VALUE lies in 0..=MAX).
 * - DUIPAI_CHOICES=replay: the VALUEs of DUIPAI_CHOICES_IN are served in order instead, a
 *   value above the draw's MAX or past the end as the draw's simplest value; what was served
 *   is written as when recording. More than DUIPAI_CHOICES_LIMIT draws (when set) end the
 *   run at once with exit status 86.
 */
#ifndef DUIPAI_CHOICES_H
#define DUIPAI_CHOICES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DUIPAI_CHOICES_UNUSED __attribute__((unused))

struct duipai_choices_state {
    int mode; /* -1 not read yet, 0 off, 1 record, 2 replay */
    int inside; /* a bounded draw is running: the engine draws it makes are not choices */
    unsigned long long *given;
    size_t given_len;
    unsigned long long limit;
    unsigned long long count;
    FILE *out;
};

static struct duipai_choices_state duipai_choices_state_ DUIPAI_CHOICES_UNUSED = {-1, 0, 0, 0, 0, 0, 0};

static void duipai_choices_close(void) {
    if (duipai_choices_state_.out) {
        fclose(duipai_choices_state_.out);
        duipai_choices_state_.out = 0;
    }
}

static void duipai_choices_read_given(const char *path) {
    struct duipai_choices_state *s = &duipai_choices_state_;
    FILE *in = path ? fopen(path, "r") : 0;
    size_t capacity = 0;
    unsigned long long value;
    if (!in) {
        return;
    }
    while (fscanf(in, "%llu", &value) == 1) {
        if (s->given_len == capacity) {
            capacity = capacity ? 2 * capacity : 1024;
            s->given = (unsigned long long *) realloc(s->given, capacity * sizeof *s->given);
            if (!s->given) {
                exit(3);
            }
        }
        s->given[s->given_len++] = value;
    }
    fclose(in);
}

static void duipai_choices_start(void) {
    struct duipai_choices_state *s = &duipai_choices_state_;
    const char *mode = getenv("DUIPAI_CHOICES");
    const char *out = getenv("DUIPAI_CHOICES_OUT");
    const char *limit = getenv("DUIPAI_CHOICES_LIMIT");
    s->mode = 0;
    if (!mode || !out || (strcmp(mode, "record") != 0 && strcmp(mode, "replay") != 0)) {
        return;
    }
    s->out = fopen(out, "w");
    if (!s->out) {
        return;
    }
    setvbuf(s->out, 0, _IOFBF, 1 << 16);
    atexit(duipai_choices_close);
    if (strcmp(mode, "replay") == 0) {
        duipai_choices_read_given(getenv("DUIPAI_CHOICES_IN"));
        s->limit = limit ? strtoull(limit, 0, 10) : 0;
        s->mode = 2;
    } else {
        s->mode = 1;
    }
}

/* Where a draw was made: the return addresses of the calls that led to it, hashed, so that
 * a draw through a library's function (testlib's rnd.next, a distribution) is told apart by
 * the generator's line that called it, not by the library's line that drew. A recursive
 * call's repeated address counts once, so that a line draws from one place at any depth. */
#if defined(__GLIBC__)
#include <execinfo.h>
#define DUIPAI_CHOICES_FRAMES 10
__attribute__((noinline)) DUIPAI_CHOICES_UNUSED static unsigned long long duipai_choices_place(void) {
    void *frames[DUIPAI_CHOICES_FRAMES];
    int depth = backtrace(frames, DUIPAI_CHOICES_FRAMES);
    unsigned long long hash = 1469598103934665603ULL;
    void *last = 0;
    /* Frame 0 is this function, frame 1 the recorder's serve: the callers start at 2. */
    for (int i = 2; i < depth; i++) {
        if (frames[i] == last) {
            continue;
        }
        last = frames[i];
        hash = (hash ^ (unsigned long long) (uintptr_t) frames[i]) * 1099511628211ULL;
    }
    return hash >> 1;
}
#else
#define duipai_choices_place() ((unsigned long long) (uintptr_t) __builtin_return_address(0))
#endif

/* One choice: `raw` as drawn when recording, the given value when replaying, written with
 * the place it was drawn at (one line of a loop shares it). */
__attribute__((noinline)) DUIPAI_CHOICES_UNUSED static unsigned long long duipai_choices_serve(
    unsigned long long maximum, unsigned long long simplest, unsigned long long raw) {
    struct duipai_choices_state *s = &duipai_choices_state_;
    unsigned long long value = raw;
    if (s->mode == 2) {
        if (s->limit && s->count >= s->limit) {
            fputs("duipai-choices: overrun\n", stderr);
            fflush(stderr);
            _Exit(86);
        }
        value = s->count < s->given_len && s->given[s->count] <= maximum ? s->given[s->count]
                                                                          : simplest;
    }
    s->count++;
    fprintf(s->out, "%llu %llu %llu\n", duipai_choices_place(), maximum, value);
    return value;
}

/* A draw of an engine (or rand()) whose output lies in 0..=maximum. */
DUIPAI_CHOICES_UNUSED static unsigned long long duipai_choices_draw(
    unsigned long long maximum, unsigned long long simplest, unsigned long long raw) {
    struct duipai_choices_state *s = &duipai_choices_state_;
    if (s->mode < 0) {
        duipai_choices_start();
    }
    if (s->mode == 0 || s->inside) {
        return raw;
    }
    return duipai_choices_serve(maximum, simplest < maximum ? simplest : maximum, raw);
}

/* testlib forbids rand() (an error attribute on its own declaration): not wrapped there. */
#ifndef DUIPAI_CHOICES_TESTLIB
DUIPAI_CHOICES_UNUSED static int duipai_choices_rand(void) {
    return (int) duipai_choices_draw((unsigned long long) RAND_MAX, 0, (unsigned long long) rand());
}
#endif

#ifdef __cplusplus

#include <random>

/* A draw whose value is known to lie in 0..=maximum (a testlib rnd.next(n), a
 * uniform_int_distribution): one choice, whatever the engine draws it takes. */
template <class Raw>
static unsigned long long duipai_choices_bounded(unsigned long long maximum, Raw raw) {
    struct duipai_choices_state *s = &duipai_choices_state_;
    if (s->mode < 0) {
        duipai_choices_start();
    }
    if (s->mode == 0 || s->inside) {
        return raw();
    }
    unsigned long long value = 0;
    if (s->mode == 1) {
        s->inside = 1;
        value = raw();
        s->inside = 0;
    }
    return duipai_choices_serve(maximum, 0, value);
}

#ifdef DUIPAI_CHOICES_TESTLIB
#include DUIPAI_CHOICES_TESTLIB
#endif

namespace std {

struct duipai_choices_mt19937 : mt19937 {
    using mt19937::mt19937;
    duipai_choices_mt19937() : mt19937() {}
    // 1 is the simplest output of a full-range engine: uniform_int_distribution (Lemire's
    // method) rejects 0 for most ranges, and maps 1 to the range's smallest value.
    result_type operator()() {
        return (result_type) duipai_choices_draw(0xffffffffULL, 1, mt19937::operator()());
    }
};

struct duipai_choices_mt19937_64 : mt19937_64 {
    using mt19937_64::mt19937_64;
    duipai_choices_mt19937_64() : mt19937_64() {}
    result_type operator()() {
        return (result_type) duipai_choices_draw(~0ULL, 1, mt19937_64::operator()());
    }
};

struct duipai_choices_default_random_engine : default_random_engine {
    using default_random_engine::default_random_engine;
    duipai_choices_default_random_engine() : default_random_engine() {}
    result_type operator()() {
        unsigned long long low = default_random_engine::min();
        unsigned long long high = default_random_engine::max();
        unsigned long long raw = default_random_engine::operator()();
        return (result_type) (low + duipai_choices_draw(high - low, 0, raw - low));
    }
};

template <class T = int>
struct duipai_choices_uniform_int_distribution : uniform_int_distribution<T> {
    using base = uniform_int_distribution<T>;
    using typename base::param_type;
    using typename base::result_type;
    using base::base;
    duipai_choices_uniform_int_distribution() : base() {}

    template <class G>
    result_type operator()(G &g) {
        return (*this)(g, this->param());
    }

    template <class G>
    result_type operator()(G &g, const param_type &p) {
        typedef typename make_unsigned<result_type>::type U;
        unsigned long long width = (unsigned long long) ((U) p.b() - (U) p.a());
        unsigned long long offset = duipai_choices_bounded(width, [&]() {
            return (unsigned long long) (U) ((U) base::operator()(g, p) - (U) p.a());
        });
        return (result_type) ((U) p.a() + (U) offset);
    }
};

}  // namespace std

#define mt19937 duipai_choices_mt19937
#define mt19937_64 duipai_choices_mt19937_64
#define default_random_engine duipai_choices_default_random_engine
#define uniform_int_distribution duipai_choices_uniform_int_distribution

#ifndef DUIPAI_CHOICES_TESTLIB
namespace std {
using ::duipai_choices_rand;
}
#endif

#endif /* __cplusplus */

#ifndef DUIPAI_CHOICES_TESTLIB
#define rand duipai_choices_rand
#endif

#endif /* DUIPAI_CHOICES_H */
