#include "testlib.h"
#include <string>

int main(int argc, char* argv[]) {
    registerValidation(argc, argv);
    int q = inf.readInt(1, 100, "q");
    inf.readEoln();
    for (int i = 0; i < q; i++) {
        std::string op = inf.readToken("add|ask", "op");
        if (op == "add") {
            inf.readSpace();
            inf.readInt(0, 1000, "x");
        }
        inf.readEoln();
    }
    inf.readEof();
}
