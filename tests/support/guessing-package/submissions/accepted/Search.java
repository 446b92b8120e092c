// The same binary search in Java.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Search {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        long n = Long.parseLong(in.readLine().trim());
        long lo = 1, hi = n;
        while (true) {
            long mid = (lo + hi) / 2;
            System.out.println("? " + mid);
            System.out.flush();
            String reply = in.readLine();
            if (reply == null || reply.trim().equals("=")) return;
            if (reply.trim().equals("<")) hi = mid - 1; else lo = mid + 1;
        }
    }
}
