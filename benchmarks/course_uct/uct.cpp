// A plain UCT player for the Tsinghua course's gravity Connect Four, written as a strong student
// of the course writes one: the reference opponent of benchmarks/course_reference.py.
//
// The course's strategy interface (the same exported functions and arguments as the course's
// objects):
//
//   extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
//                              const int lastX, const int lastY, const int noX, const int noY);
//   extern "C" void clearPoint(Point* p);
//
// row x counts from the top, column y from the left; board[x*N+y] is 0 empty (the no-go cell
// reads 0 too), 1 the opponent's stone, 2 ours; top[y] is the number of open rows of column y,
// the next stone lands on row top[y]-1 (already past the no-go cell).
//
// The search: a flat array board with top[]; UCT from the position given (no tree reuse), a
// node per move expanded one child at a time, UCB1 with C = UCT_C; each simulation replays the
// tree's moves on a copy of the root board, then one random playout in which the side to move
// takes an immediate win if it has one, else blocks the opponent's immediate win, else plays a
// uniformly random open column.  At the root the same two checks come first (a win is played at
// once, an opponent's win is blocked at once).  The move is the most visited root child.
//
// Thinking time: THINK_MS milliseconds of wall time per move (compile-time, default 2600, about
// what the course's own test programs think of the 3 s), overridden at run time by the
// environment variable COURSE_UCT_MS when set.
//
// Build: g++ -O2 -shared -fPIC [-DTHINK_MS=2600] -o uct.so uct.cpp
//
// Two extra exports serve the benchmark's speed figures (not part of the course's interface):
// uctLastSims() the simulations of the last getPoint, and uctPlayoutRate(...) random playouts
// per second from an empty board.

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#ifndef THINK_MS
#define THINK_MS 2600
#endif
#ifndef UCT_C
#define UCT_C 0.8
#endif

struct Point {
    int x;
    int y;
    Point(int x, int y) : x(x), y(y) {}
};

namespace {

const int MAXW = 12, MAXH = 12, MAXCELLS = MAXW * MAXH;
const signed char EMPTY = 0, OPP = 1, ME = 2, NOGO = 3;

typedef std::chrono::steady_clock Clock;

struct Rng {
    uint64_t s;
    uint64_t next() {            // xorshift64*
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 2685821657736338717ULL;
    }
    int below(int n) { return (int)(((next() >> 32) * (uint64_t)n) >> 32); }
};

Rng rng = {0x9E3779B97F4A7C15ULL};

struct State {
    int M, N;
    signed char cell[MAXCELLS];  // [x*N+y], x from the top
    int top[MAXW];               // open rows from the top; lands on top[y]-1
    int filled;                  // columns with top == 0

    void drop(int y, signed char who) {
        int x = top[y] - 1;
        cell[x * N + y] = who;
        x--;
        while (x >= 0 && cell[x * N + y] == NOGO) x--;
        top[y] = x + 1;
        if (top[y] == 0) filled++;
    }

    int run(int x, int y, int dx, int dy, signed char who) const {
        int n = 0;
        x += dx;
        y += dy;
        while (x >= 0 && x < M && y >= 0 && y < N && cell[x * N + y] == who) {
            n++;
            x += dx;
            y += dy;
        }
        return n;
    }

    // Would `who` have four in a row with a stone on (x, y)?  (the cell itself not read)
    bool fourAt(int x, int y, signed char who) const {
        if (run(x, y, 1, 0, who) >= 3) return true;
        if (run(x, y, 0, 1, who) + run(x, y, 0, -1, who) >= 3) return true;
        if (run(x, y, 1, 1, who) + run(x, y, -1, -1, who) >= 3) return true;
        return run(x, y, 1, -1, who) + run(x, y, -1, 1, who) >= 3;
    }

    bool winsIn(int y, signed char who) const { return top[y] > 0 && fourAt(top[y] - 1, y, who); }
};

// One playout from s with `who` to move: the winner (OPP or ME), or 0 for a draw.
// checked: take an immediate win, else block the opponent's, else a random open column.
int playout(State& s, signed char who, bool checked) {
    int open[MAXW];
    for (;;) {
        int k = 0, block = -1;
        signed char other = (signed char)(3 - who);
        for (int y = 0; y < s.N; y++) {
            if (s.top[y] == 0) continue;
            open[k++] = y;
            if (checked) {
                int x = s.top[y] - 1;
                if (s.fourAt(x, y, who)) return who;
                if (block < 0 && s.fourAt(x, y, other)) block = y;
            }
        }
        if (k == 0) return 0;
        int y = block >= 0 ? block : open[rng.below(k)];
        int x = s.top[y] - 1;
        if (!checked && s.fourAt(x, y, who)) return who;
        s.drop(y, who);
        who = other;
    }
}

struct Node {
    int parent;
    int firstChild;
    int sibling;
    int visits;
    float wins;          // from the view of the player who moved into this node
    signed char col;     // the move into this node
    signed char who;     // the player who made it
    signed char untried; // next column to try (N: all tried)
    signed char terminal; // 0 no, 1 the move won, 2 the board is full (a draw)
};

std::vector<Node> pool;
const int POOL = 3000000;
long long lastSims = 0;

int nextOpen(const State& s, int from) {
    while (from < s.N && s.top[from] == 0) from++;
    return from;
}

int newNode(int parent, int col, signed char who) {
    pool.push_back(Node());
    Node& n = pool.back();
    n.parent = parent;
    n.firstChild = -1;
    n.sibling = -1;
    n.visits = 0;
    n.wins = 0.0f;
    n.col = (signed char)col;
    n.who = who;
    n.untried = 0;
    n.terminal = 0;
    return (int)pool.size() - 1;
}

int thinkMs() {
    const char* env = std::getenv("COURSE_UCT_MS");
    if (env && *env) {
        int v = std::atoi(env);
        if (v > 0) return v;
    }
    return THINK_MS;
}

int search(const State& root, double seconds, long long* simsOut) {
    if (pool.capacity() < (size_t)POOL) pool.reserve(POOL);
    pool.clear();
    int rootId = newNode(-1, -1, OPP);     // the opponent moved into the root
    pool[rootId].untried = (signed char)nextOpen(root, 0);
    Clock::time_point start = Clock::now();
    long long sims = 0;
    State s;
    for (;;) {
        if ((sims & 63) == 0) {
            double took = std::chrono::duration<double>(Clock::now() - start).count();
            if (took >= seconds) break;
        }
        sims++;
        std::memcpy(&s, &root, sizeof(State));
        int node = rootId;
        // selection
        while (pool[node].terminal == 0 && pool[node].untried >= s.N &&
               pool[node].firstChild >= 0) {
            double logn = std::log((double)pool[node].visits);
            int best = -1;
            double bestV = -1e300;
            for (int c = pool[node].firstChild; c >= 0; c = pool[c].sibling) {
                const Node& ch = pool[c];
                double v = ch.wins / ch.visits + UCT_C * std::sqrt(logn / ch.visits);
                if (v > bestV) {
                    bestV = v;
                    best = c;
                }
            }
            node = best;
            s.drop(pool[node].col, pool[node].who);
        }
        // expansion: the next untried column
        if (pool[node].terminal == 0 && pool[node].untried < s.N && pool.size() < (size_t)POOL) {
            int col = pool[node].untried;
            pool[node].untried = (signed char)nextOpen(s, col + 1);
            signed char who = (signed char)(3 - pool[node].who);
            int x = s.top[col] - 1;
            bool won = s.fourAt(x, col, who);
            int child = newNode(node, col, who);
            pool[child].sibling = pool[node].firstChild;
            pool[node].firstChild = child;
            s.drop(col, who);
            if (won) pool[child].terminal = 1;
            else if (s.filled == s.N) pool[child].terminal = 2;
            pool[child].untried = (signed char)nextOpen(s, 0);
            node = child;
        }
        // simulation
        int result;
        const Node& leaf = pool[node];
        if (leaf.terminal == 1) result = leaf.who;
        else if (leaf.terminal == 2) result = 0;
        else result = playout(s, (signed char)(3 - leaf.who), true);
        // backup
        for (int n = node; n >= 0; n = pool[n].parent) {
            pool[n].visits++;
            if (result == 0) pool[n].wins += 0.5f;
            else if (result == pool[n].who) pool[n].wins += 1.0f;
        }
    }
    *simsOut = sims;
    int best = -1, bestVisits = -1;
    for (int c = pool[rootId].firstChild; c >= 0; c = pool[c].sibling)
        if (pool[c].visits > bestVisits) {
            bestVisits = pool[c].visits;
            best = pool[c].col;
        }
    return best;
}

void seedOnce() {
    static bool done = false;
    if (done) return;
    done = true;
    uint64_t t = (uint64_t)Clock::now().time_since_epoch().count();
    rng.s ^= t * 0x9E3779B97F4A7C15ULL;
    if (rng.s == 0) rng.s = 1;
}

void load(State& s, int M, int N, const int* top, const int* board, int noX, int noY) {
    s.M = M;
    s.N = N;
    s.filled = 0;
    for (int i = 0; i < M * N; i++) s.cell[i] = (signed char)board[i];
    if (noX >= 0 && noY >= 0 && noX < M && noY < N) s.cell[noX * N + noY] = NOGO;
    for (int y = 0; y < N; y++) {
        s.top[y] = top[y];
        if (top[y] == 0) s.filled++;
    }
}

}  // namespace

extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    (void)lastX;
    (void)lastY;
    Clock::time_point start = Clock::now();
    seedOnce();
    State s;
    load(s, M, N, top, board, noX, noY);
    lastSims = 0;
    // the root's checks: our win first, then the opponent's win blocked
    for (int y = 0; y < N; y++)
        if (s.winsIn(y, ME)) return new Point(top[y] - 1, y);
    for (int y = 0; y < N; y++)
        if (s.winsIn(y, OPP)) return new Point(top[y] - 1, y);
    int open = -1, count = 0;
    for (int y = 0; y < N; y++)
        if (top[y] > 0) {
            open = y;
            count++;
        }
    if (count <= 1) return open < 0 ? 0 : new Point(top[open] - 1, open);
    double spent = std::chrono::duration<double>(Clock::now() - start).count();
    int y = search(s, thinkMs() / 1000.0 - spent, &lastSims);
    if (y < 0) y = open;
    return new Point(top[y] - 1, y);
}

extern "C" void clearPoint(Point* p) { delete p; }

// --- for the benchmark only -------------------------------------------------------------------
extern "C" long long uctLastSims() { return lastSims; }

// Random playouts from the empty M x N board with the no-go cell (noX, noY), for `seconds`:
// playouts per second (checked != 0: with the win/block checks of the search's playouts).
extern "C" double uctPlayoutRate(int M, int N, int noX, int noY, double seconds, int checked) {
    seedOnce();
    State root;
    std::memset(&root, 0, sizeof root);
    root.M = M;
    root.N = N;
    root.cell[noX * N + noY] = NOGO;
    for (int y = 0; y < N; y++) {
        int x = M - 1;
        while (x >= 0 && root.cell[x * N + y] == NOGO) x--;
        root.top[y] = x + 1;
    }
    Clock::time_point start = Clock::now();
    long long n = 0;
    double took = 0;
    State s;
    while (took < seconds) {
        for (int i = 0; i < 256; i++) {
            std::memcpy(&s, &root, sizeof s);
            playout(s, ME, checked != 0);
        }
        n += 256;
        took = std::chrono::duration<double>(Clock::now() - start).count();
    }
    return n / took;
}
