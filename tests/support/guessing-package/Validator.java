// The input of "guess the number": one line `n x` with 1 <= x <= n <= 10^9, single spaces,
// no leading zeros, a final line break and nothing else. Exit 0 valid, 1 invalid (testlib's
// convention, which duipai and the package's wrapper read).
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

public class Validator {
    static void reject(String why) {
        System.err.println(why);
        System.exit(1);
    }

    static long number(String token, String name, long lo, long hi) {
        if (!token.matches("0|[1-9][0-9]{0,9}")) {
            reject(name + ": expected an integer without leading zeros, found \"" + token + "\"");
        }
        long value = Long.parseLong(token);
        if (value < lo || value > hi) {
            reject(name + " = " + value + " is not in [" + lo + ", " + hi + "]");
        }
        return value;
    }

    public static void main(String[] args) throws IOException {
        InputStream in = System.in;
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        String text = all.toString(StandardCharsets.US_ASCII);
        if (!text.endsWith("\n") || text.indexOf('\n') != text.length() - 1) {
            reject("expected exactly one line, ended by a line break");
        }
        String[] tokens = text.substring(0, text.length() - 1).split(" ", -1);
        if (tokens.length != 2) {
            reject("expected `n x` separated by one space, found " + tokens.length + " tokens");
        }
        long n = number(tokens[0], "n", 1, 1000000000L);
        number(tokens[1], "x", 1, n);
    }
}
