// A main for Pascal Pons' Connect Four solver (https://github.com/PascalPons/connect4, AGPL,
// not part of this repository) that benchmarks/connect4_instant.py reads: one position a line
// on stdin; out: "moves score nodes microseconds", or with -a "moves s1 .. s7 nodes microseconds"
// (-1000 for a full column).  The table is reset before each position and no book is read, so
// each figure is a cold solve.  Build it beside his sources:
//
//     git clone https://github.com/PascalPons/connect4 && cd connect4
//     cp /path/to/boardai/benchmarks/connect4_pons_main.cpp .
//     g++ --std=c++11 -O3 -DNDEBUG -o c4bench connect4_pons_main.cpp Solver.cpp
#include "Solver.hpp"
#include <chrono>
#include <iostream>
using namespace GameSolver::Connect4;

int main(int argc, char** argv) {
  Solver solver;
  bool analyze = false;
  for (int i = 1; i < argc; i++) if (argv[i][0] == '-' && argv[i][1] == 'a') analyze = true;
  std::string line;
  while (std::getline(std::cin, line)) {
    Position P;
    if (P.play(line) != line.size()) { std::cout << line << " invalid" << std::endl; continue; }
    solver.reset();
    unsigned long long n0 = solver.getNodeCount();
    auto t0 = std::chrono::steady_clock::now();
    std::cout << line;
    if (analyze) {
      std::vector<int> s = solver.analyze(P, false);
      for (int c = 0; c < Position::WIDTH; c++) std::cout << " " << s[c];
    } else {
      std::cout << " " << solver.solve(P, false);
    }
    auto t1 = std::chrono::steady_clock::now();
    std::cout << " " << (solver.getNodeCount() - n0) << " "
              << std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0).count() << std::endl;
  }
}
