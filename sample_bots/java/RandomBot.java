// A random rook/1 bot in Java (17+, the standard library only): copy this file to start your own bot.
//
// Build: javac RandomBot.java      Run: java -cp . RandomBot [NAME]
//
// It reads one JSON object per line on stdin and writes one per line on stdout, flushed after every line
// (System.out is buffered when it is a pipe). Logs go to System.err. Its hello declines the view
// ("view":false), so every request is only {"type":"act",...,"legal":[...],"id":N}: no JSON library is
// needed, just the small reader below. In the auction it passes or makes the lowest bid with equal chance;
// otherwise it plays a random legal action. Its random numbers are reseeded from each game's "seed", so a
// league replays exactly. Only choose() needs changing to make it smarter.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public final class RandomBot {
    private static Random random = new Random(0);

    /** Where the value of a top-level KEY starts in a one-line JSON object, or -1. */
    static int valueOf(String line, String key) {
        int depth = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                int start = ++i;
                while (i < line.length() && line.charAt(i) != '"') {
                    i += line.charAt(i) == '\\' ? 2 : 1;
                }
                if (i >= line.length()) {
                    return -1;
                }
                int after = i + 1;
                while (after < line.length() && line.charAt(after) == ' ') {
                    after++;
                }
                if (depth == 1 && after < line.length() && line.charAt(after) == ':'
                        && line.substring(start, i).equals(key)) {
                    after++;
                    while (after < line.length() && line.charAt(after) == ' ') {
                        after++;
                    }
                    return after;
                }
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return -1;
    }

    static String string(String line, String key) {
        int at = valueOf(line, key);
        if (at < 0 || line.charAt(at) != '"') {
            return null;
        }
        return line.substring(at + 1, line.indexOf('"', at + 1));
    }

    static long number(String line, String key) {
        int at = valueOf(line, key);
        int end = at;
        while (end < line.length() && (Character.isDigit(line.charAt(end)) || line.charAt(end) == '-')) {
            end++;
        }
        return Long.parseLong(line.substring(at, end));
    }

    /** The strings of the array at KEY (action strings hold no escapes). */
    static List<String> strings(String line, String key) {
        List<String> out = new ArrayList<>();
        int at = valueOf(line, key);
        int end = line.indexOf(']', at);
        for (int i = line.indexOf('"', at); i >= 0 && i < end; i = line.indexOf('"', i + 1)) {
            int close = line.indexOf('"', i + 1);
            out.add(line.substring(i + 1, close));
            i = close;
        }
        return out;
    }

    /** One of the legal actions. In the auction: pass or the lowest bid, with equal chance. */
    static String choose(List<String> legal) {
        if (legal.get(0).equals("pass") || legal.get(0).startsWith("bid ")) {
            String lowest = null;
            for (String action : legal) {
                if (action.startsWith("bid ")
                        && (lowest == null || Integer.parseInt(action.substring(4)) < Integer.parseInt(lowest.substring(4)))) {
                    lowest = action;
                }
            }
            if (lowest != null && (!legal.contains("pass") || random.nextBoolean())) {
                return lowest;
            }
            return "pass";
        }
        return legal.get(random.nextInt(legal.size())); // a discard, a trump colour or a card to play
    }

    public static void main(String[] args) throws IOException {
        String name = args.length > 0 ? args[0] : "random-java";
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        String line;
        while ((line = in.readLine()) != null) { // null at end of input: the referee has gone
            if (line.isBlank()) {
                continue;
            }
            String type = string(line, "type");
            if ("hello".equals(type)) {
                out.print("{\"type\":\"hello\",\"name\":\"" + name
                        + "\",\"version\":\"1.0\",\"protocol\":\"rook/1\",\"view\":false}\n");
                out.flush(); // nothing reaches the referee until it is flushed
            } else if ("game".equals(type)) {
                random = new Random(number(line, "seed")); // this game's choices: from its seed
            } else if ("act".equals(type)) {
                out.print("{\"id\":" + number(line, "id") + ",\"action\":\"" + choose(strings(line, "legal")) + "\"}\n");
                out.flush();
            } else if ("bye".equals(type)) {
                return;
            }
            // Everything else ("deal", "played", "trick", ...) is news that needs no reply.
        }
    }
}
