// gems answer validator (BAPCtools: `answer_validator input < answer`, exit 42 valid, 43
// invalid): one line per case of the input, each one integer in -210..210 written plainly
// (no sign but a minus, no leading zero, nothing else on the line). The cases are counted
// in the input, so an answer with a line too many or too few is rejected.
#include <cstdio>
#include <cstdlib>
#include <string>

static int reject(const char *why) {
    std::fprintf(stderr, "%s\n", why);
    return 43;
}

// The cases of a valid input: "G B S" lines up to "0 0 0", each followed by its B bags.
static long count_cases(const char *path) {
    std::FILE *in = std::fopen(path, "r");
    if (!in) return -1;
    long cases = 0;
    int g, b, s;
    while (std::fscanf(in, "%d %d %d", &g, &b, &s) == 3 && !(g == 0 && b == 0 && s == 0)) {
        cases++;
        for (int i = 0; i < b; i++) {
            int n, colour;
            if (std::fscanf(in, "%d", &n) != 1) return -1;
            for (int k = 0; k < n; k++)
                if (std::fscanf(in, "%d", &colour) != 1) return -1;
        }
    }
    std::fclose(in);
    return cases;
}

int main(int argc, char **argv) {
    if (argc < 2) return reject("usage: answer_validator input < answer");
    long cases = count_cases(argv[1]);
    if (cases < 0) return reject("cannot read the input");
    std::string text;
    for (int c; (c = std::getchar()) != EOF;) text.push_back(static_cast<char>(c));
    std::size_t at = 0;
    for (long k = 1; k <= cases; k++) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) return reject("fewer answer lines than cases");
        std::string line = text.substr(at, end - at);
        at = end + 1;
        std::size_t digits = line[0] == '-' ? 1 : 0;
        bool plain = line.size() > digits && line.size() - digits <= 3 &&
                     line.find_first_not_of("0123456789", digits) == std::string::npos &&
                     !(line[digits] == '0' && (line.size() > digits + 1 || digits == 1));
        if (!plain) return reject("an answer line is not one plain integer");
        if (std::abs(std::atoi(line.c_str())) > 210) return reject("an answer beyond 210");
    }
    if (at != text.size()) return reject("more answer lines than cases");
    return 42;
}
