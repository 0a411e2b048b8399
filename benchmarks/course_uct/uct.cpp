// A UCT player for the Tsinghua course's gravity Connect Four, written as a strong student of the
// course writes one: the reference opponent of benchmarks/course_reference.py.
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
// The board: line bitboards.  Per colour, one small word per row (bit = column), column,
// diagonal and anti-diagonal (bit = row), so a stone sets four bits and "would this stone make
// four" reads four words.  Per colour a mask of the columns whose landing cell would make four
// for it is kept up to date: after a stone only the columns within three of it whose landing
// cell is within three rows of it are checked again (the opponent's mask changes only in the
// column played).
//
// The search: UCT (UCB1 with constant UCT_C) over a node pool; a node's children are made at
// once on its first selection: when the side to move can make four, only that move; else when
// the opponent threatens to make four, only the block; else every open column.  A winning move
// is a terminal node.  Each simulation replays the tree's moves on a copy of the root board and
// ends with a random playout in which the side to move takes an immediate win, else blocks the
// opponent's immediate win (two of them: it has lost), else plays a uniformly random open
// column.  The move is the most visited root child.  The tree is kept between moves: when the
// board given is the one the last answer left plus the opponent's stone at (lastX, lastY), the
// matching grandchild becomes the root (the pool starts afresh when it runs low).  The root's
// checks come first (a win is played at once, an opponent's win blocked at once).
//
// Thinking time: THINK_MS milliseconds of wall time per move (compile-time, default 2600, about
// what the course's own test programs think of the 3 s), overridden at run time by the
// environment variable COURSE_UCT_MS when set; UCT_C likewise by COURSE_UCT_C.
//
// Build: g++ -O2 -shared -fPIC [-DTHINK_MS=2600] [-DUCT_C=1.0] -o uct.so uct.cpp
// Self-play (tuning UCT_C): g++ -O2 -DSELFPLAY -o selfplay uct.cpp, then
//   ./selfplay C_A C_B MS ROUNDS SEED   (each round a drawn course board, played twice with the
//   first move swapped; prints A's wins, losses and draws)
//
// Extra exports for the benchmark's speed figures (not part of the course's interface):
// uctLastSims() the simulations of the last getPoint, uctLastReused() the root's visits kept
// from the previous move, and uctPlayoutRate(...) random playouts per second from an empty board.

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#ifndef THINK_MS
#define THINK_MS 2600
#endif
#ifndef UCT_C
#define UCT_C 0.6
#endif

struct Point {
    int x;
    int y;
    Point(int x, int y) : x(x), y(y) {}
};

namespace {

const int MAXS = 12;
const int OPP = 1, ME = 2;      // the course's cell values; colour index = value - 1

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

inline bool four(uint32_t m) {
    m &= m >> 1;
    return (m & (m >> 2)) != 0;
}

inline int popcount(uint32_t m) { return __builtin_popcount(m); }

struct Board {
    int M, N;
    uint16_t row[2][MAXS];           // bit y
    uint16_t col[2][MAXS];           // bit x
    uint16_t dia[2][2 * MAXS];       // index y - x + M - 1, bit x
    uint16_t ant[2][2 * MAXS];       // index x + y, bit x
    uint16_t nogo[MAXS];             // per column, the no-go row as a bit
    int top[MAXS];                   // open rows from the top; lands on top[y]-1
    uint32_t open;                   // columns with top > 0
    uint32_t wins[2];                // columns whose landing cell makes four for colour p
    int left;                        // empty playable cells

    bool fourAt(int p, int x, int y) const {
        if (four(row[p][x] | (1u << y))) return true;
        if (four(col[p][y] | (1u << x))) return true;
        if (four(dia[p][y - x + M - 1] | (1u << x))) return true;
        return four(ant[p][x + y] | (1u << x));
    }

    void flag(int p, int y) {
        if (top[y] > 0 && fourAt(p, top[y] - 1, y)) wins[p] |= 1u << y;
        else wins[p] &= ~(1u << y);
    }

    // p drops a stone in column y (which must be open)
    void drop(int y, int p) {
        int x = top[y] - 1;
        row[p][x] |= 1u << y;
        col[p][y] |= 1u << x;
        dia[p][y - x + M - 1] |= 1u << x;
        ant[p][x + y] |= 1u << x;
        left--;
        int t = x;
        while (t > 0 && (nogo[y] >> (t - 1)) & 1) t--;
        top[y] = t;
        if (t == 0) open &= ~(1u << y);
        flag(0, y);
        flag(1, y);
        int lo = y - 3 < 0 ? 0 : y - 3, hi = y + 3 >= N ? N - 1 : y + 3;
        for (int c = lo; c <= hi; c++) {
            if (c == y || top[c] == 0) continue;
            int d = top[c] - 1 - x;
            if (d >= -3 && d <= 3) flag(p, c);
        }
    }

    void load(int m, int n, const int* tp, const int* board, int noX, int noY) {
        std::memset(this, 0, sizeof *this);
        M = m;
        N = n;
        if (noX >= 0 && noY >= 0 && noX < M && noY < N) nogo[noY] = (uint16_t)(1u << noX);
        for (int x = 0; x < M; x++)
            for (int y = 0; y < N; y++) {
                int v = board[x * N + y];
                if (v != OPP && v != ME) continue;
                int p = v - 1;
                row[p][x] |= 1u << y;
                col[p][y] |= 1u << x;
                dia[p][y - x + M - 1] |= 1u << x;
                ant[p][x + y] |= 1u << x;
            }
        for (int y = 0; y < N; y++) {
            top[y] = tp[y];
            if (top[y] > 0) open |= 1u << y;
            for (int x = 0; x < top[y]; x++)
                if (!((nogo[y] >> x) & 1)) left++;
        }
        for (int y = 0; y < N; y++) {
            flag(0, y);
            flag(1, y);
        }
    }

    bool same(const Board& o) const { return std::memcmp(this, &o, sizeof *this) == 0; }
};

inline int lowest(uint32_t m) { return __builtin_ctz(m); }

// One playout from b with colour p (0/1) to move: the winning colour, or -1 for a draw.
int playout(Board& b, int p, Rng& rng) {
    int cols[MAXS], k = 0;
    for (int y = 0; y < b.N; y++)
        if ((b.open >> y) & 1) cols[k++] = y;
    for (;;) {
        if (b.wins[p]) return p;
        int q = 1 - p;
        int y;
        if (b.wins[q]) {
            if (popcount(b.wins[q]) > 1) return q;
            y = lowest(b.wins[q]);
        } else {
            if (b.left == 0) return -1;
            y = cols[rng.below(k)];
        }
        b.drop(y, p);
        if (b.top[y] == 0)
            for (int i = 0; i < k; i++)
                if (cols[i] == y) {
                    cols[i] = cols[--k];
                    break;
                }
        if (b.left == 0) return -1;
        p = q;
    }
}

struct Node {
    int firstChild;      // -1: not expanded
    float visits;
    float wins;          // for the player who moved into this node
    signed char col;     // the move into this node
    signed char nChild;
    signed char terminal; // 1: the move into it won; 2: the board is full (a draw)
};

struct Player {
    double c = UCT_C;
    int thinkMs = THINK_MS;
    std::vector<Node> pool;
    size_t poolCap = 8000000;
    Rng rng = {0x9E3779B97F4A7C15ULL};
    // tree reuse
    bool haveTree = false;
    Board after;         // the board our last answer left
    int afterNode = -1;  // its node
    int root = -1;
    long long lastSims = 0;
    long long reusedVisits = 0;

    int newNode(int col) {
        Node n;
        n.firstChild = -1;
        n.visits = 0;
        n.wins = 0;
        n.col = (signed char)col;
        n.nChild = 0;
        n.terminal = 0;
        pool.push_back(n);
        return (int)pool.size() - 1;
    }

    // children of node (board b, colour p to move)
    void expand(int node, const Board& b, int p) {
        uint32_t moves = b.open;
        if (b.wins[p]) moves = b.wins[p] & (0u - b.wins[p]);      // one winning move
        else if (b.wins[1 - p]) moves = b.wins[1 - p] & (0u - b.wins[1 - p]);   // the block
        int first = (int)pool.size();
        int k = 0;
        for (int y = 0; y < b.N; y++) {
            if (!((moves >> y) & 1)) continue;
            int ch = newNode(y);
            if ((b.wins[p] >> y) & 1) pool[ch].terminal = 1;
            else if (b.left == 1) pool[ch].terminal = 2;
            k++;
        }
        pool[node].firstChild = first;
        pool[node].nChild = (signed char)k;
    }

    void reset(const Board& b) {
        if (pool.capacity() < poolCap) pool.reserve(poolCap);
        pool.clear();
        root = newNode(-1);
        (void)b;
    }

    int child(int node, int y) const {
        if (node < 0 || pool[node].firstChild < 0) return -1;
        for (int i = 0; i < pool[node].nChild; i++) {
            int ch = pool[node].firstChild + i;
            if (pool[ch].col == y) return ch;
        }
        return -1;
    }

    // the root for board b (ME to move): the kept tree's node when b is what we left plus the
    // opponent's stone in column lastY, else a fresh tree
    void findRoot(const Board& b, int lastY) {
        reusedVisits = 0;
        if (haveTree && lastY >= 0 && after.M == b.M && after.N == b.N &&
            pool.size() < poolCap / 2) {
            Board t = after;
            if (t.top[lastY] > 0) {
                t.drop(lastY, OPP - 1);
                int ch = child(afterNode, lastY);
                if (ch >= 0 && t.same(b)) {
                    root = ch;
                    reusedVisits = (long long)pool[ch].visits;
                    return;
                }
            }
        }
        reset(b);
    }

    int search(const Board& rootBoard, int lastY, double seconds) {
        Clock::time_point start = Clock::now();
        findRoot(rootBoard, lastY);
        long long sims = 0;
        int path[MAXS * MAXS + 2];
        Board b;
        const int me = ME - 1;
        for (;;) {
            if ((sims & 63) == 0) {
                double took = std::chrono::duration<double>(Clock::now() - start).count();
                if (took >= seconds) break;
            }
            sims++;
            b = rootBoard;
            int node = root, depth = 0, p = me;
            path[depth++] = node;
            int result;
            for (;;) {
                Node& n = pool[node];
                if (n.terminal == 1) {
                    result = 1 - p;      // the move into it won
                    break;
                }
                if (n.terminal == 2) {
                    result = -1;
                    break;
                }
                if (n.firstChild < 0) {
                    if ((n.visits > 0 || node == root) && pool.size() + MAXS < poolCap) {
                        expand(node, b, p);
                    } else {
                        result = playout(b, p, rng);
                        break;
                    }
                }
                // select
                const Node& nn = pool[node];
                double logn = std::log(nn.visits + 1.0);
                int best = -1;
                double bestV = -1.0;
                for (int i = 0; i < nn.nChild; i++) {
                    int ch = nn.firstChild + i;
                    const Node& cn = pool[ch];
                    double v = cn.visits == 0 ? 1e9 + rng.below(1000)
                                              : cn.wins / cn.visits + c * std::sqrt(logn / cn.visits);
                    if (v > bestV) {
                        bestV = v;
                        best = ch;
                    }
                }
                node = best;
                path[depth++] = node;
                if (pool[node].terminal == 0) b.drop(pool[node].col, p);
                p = 1 - p;
            }
            // backup: path[i] for i >= 1 was moved into by the colour me when i is odd
            for (int i = 0; i < depth; i++) {
                Node& n = pool[path[i]];
                n.visits += 1;
                int mover = (i & 1) ? me : 1 - me;
                if (result < 0) n.wins += 0.5f;
                else if (result == mover) n.wins += 1.0f;
            }
        }
        lastSims = sims;
        int best = -1;
        float bestVisits = -1;
        for (int i = 0; i < pool[root].nChild; i++) {
            int ch = pool[root].firstChild + i;
            if (pool[ch].visits > bestVisits) {
                bestVisits = pool[ch].visits;
                best = ch;
            }
        }
        if (best < 0) return -1;
        after = rootBoard;
        after.drop(pool[best].col, me);
        afterNode = best;
        haveTree = true;
        return pool[best].col;
    }

    // the course's getPoint, as this player: column to play
    int move(int M, int N, const int* top, const int* board, int lastY, int noX, int noY,
             Clock::time_point start) {
        Board s;
        s.load(M, N, top, board, noX, noY);
        lastSims = 0;
        const int me = ME - 1;
        if (s.wins[me]) return lowest(s.wins[me]);
        if (s.wins[1 - me]) {
            haveTree = false;
            return lowest(s.wins[1 - me]);
        }
        if (popcount(s.open) <= 1) {
            haveTree = false;
            return s.open ? lowest(s.open) : -1;
        }
        double spent = std::chrono::duration<double>(Clock::now() - start).count();
        int y = search(s, lastY, thinkMs / 1000.0 - spent);
        if (y < 0) y = lowest(s.open);
        return y;
    }
};

Player* thePlayer = nullptr;

Player& player() {
    if (!thePlayer) {
        thePlayer = new Player();
        const char* env = std::getenv("COURSE_UCT_MS");
        if (env && *env && std::atoi(env) > 0) thePlayer->thinkMs = std::atoi(env);
        env = std::getenv("COURSE_UCT_C");
        if (env && *env && std::atof(env) > 0) thePlayer->c = std::atof(env);
        uint64_t t = (uint64_t)Clock::now().time_since_epoch().count();
        thePlayer->rng.s ^= t * 0x9E3779B97F4A7C15ULL;
        if (thePlayer->rng.s == 0) thePlayer->rng.s = 1;
    }
    return *thePlayer;
}

}  // namespace

extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    (void)lastX;
    Clock::time_point start = Clock::now();
    int y = player().move(M, N, top, board, lastY, noX, noY, start);
    if (y < 0) return 0;
    return new Point(top[y] - 1, y);
}

extern "C" void clearPoint(Point* p) { delete p; }

// --- for the benchmark only -------------------------------------------------------------------
extern "C" long long uctLastSims() { return player().lastSims; }
extern "C" long long uctLastReused() { return player().reusedVisits; }

// Random playouts from the empty M x N board with the no-go cell (noX, noY), for `seconds`:
// playouts per second (checked: with the win/block checks of the search's playouts, which the
// line bitboards make cheap; the argument is kept for the benchmark's two figures).
extern "C" double uctPlayoutRate(int M, int N, int noX, int noY, double seconds, int checked) {
    (void)checked;
    Player& pl = player();
    int top[MAXS], board[MAXS * MAXS] = {0};
    for (int y = 0; y < N; y++) top[y] = (y == noY && noX == M - 1) ? M - 1 : M;
    Board root;
    root.load(M, N, top, board, noX, noY);
    Clock::time_point start = Clock::now();
    long long n = 0;
    double took = 0;
    Board s;
    while (took < seconds) {
        for (int i = 0; i < 256; i++) {
            s = root;
            playout(s, ME - 1, pl.rng);
        }
        n += 256;
        took = std::chrono::duration<double>(Clock::now() - start).count();
    }
    return n / took;
}

#ifdef SELFPLAY
// Self-play between two settings of the constant, on the course's boards (see the header).
int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: selfplay C_A C_B MS ROUNDS SEED\n");
        return 2;
    }
    double ca = std::atof(argv[1]), cb = std::atof(argv[2]);
    int ms = std::atoi(argv[3]), rounds = std::atoi(argv[4]);
    Rng draw = {(uint64_t)std::atoll(argv[5]) * 0x9E3779B97F4A7C15ULL + 1};
    int aw = 0, al = 0, ad = 0, afirst = 0;
    for (int r = 0; r < rounds; r++) {
        int M = 9 + draw.below(4), N = 9 + draw.below(4);
        int noX = draw.below(M), noY = draw.below(N);
        for (int g = 0; g < 2; g++) {
            Player pa, pb;
            pa.c = ca;
            pb.c = cb;
            pa.thinkMs = pb.thinkMs = ms;
            pa.poolCap = pb.poolCap = 2000000;
            pa.rng.s = draw.next() | 1;
            pb.rng.s = draw.next() | 1;
            Player* side[2] = {g == 0 ? &pa : &pb, g == 0 ? &pb : &pa};   // side[0] moves first
            int cell[MAXS * MAXS] = {0};        // 0 empty, 1 first player, 2 second
            int top[MAXS];
            for (int y = 0; y < N; y++) top[y] = (y == noY && noX == M - 1) ? M - 1 : M;
            int lastY = -1, winner = -1, turn = 0;
            for (int ply = 0; ply < M * N; ply++) {
                int view[MAXS * MAXS];
                for (int i = 0; i < M * N; i++)
                    view[i] = cell[i] == 0 ? 0 : (cell[i] == turn + 1 ? ME : OPP);
                int y = side[turn]->move(M, N, top, view, lastY, noX, noY, Clock::now());
                if (y < 0 || y >= N || top[y] == 0) {
                    winner = 1 - turn;
                    break;
                }
                int x = top[y] - 1;
                cell[x * N + y] = turn + 1;
                Board chk;
                int tv[MAXS * MAXS];
                for (int i = 0; i < M * N; i++) tv[i] = cell[i];
                chk.load(M, N, top, tv, noX, noY);          // before this stone: top unchanged
                bool won = chk.fourAt(turn, x, y);
                int t = x;
                while (t > 0 && t - 1 == noX && y == noY) t--;
                top[y] = t;
                lastY = y;
                if (won) {
                    winner = turn;
                    break;
                }
                bool any = false;
                for (int c = 0; c < N; c++) any |= top[c] > 0;
                if (!any) break;
                turn = 1 - turn;
            }
            int aSide = g == 0 ? 0 : 1;
            if (winner < 0) ad++;
            else if (winner == aSide) {
                aw++;
                if (aSide == 0) afirst++;
            } else al++;
        }
        std::fprintf(stderr, "\rround %d: A %d-%d-%d", r + 1, aw, al, ad);
    }
    std::fprintf(stderr, "\n");
    std::printf("C_A %g C_B %g %d ms %d rounds: A wins %d losses %d draws %d (%.3f); A first wins %d\n",
                ca, cb, ms, rounds, aw, al, ad, (aw + 0.5 * ad) / (aw + al + ad), afirst);
    return 0;
}
#endif
