// consumer.cc: the C++ consumers' program (sliding_point.cc). Exits with status 1 if the answer
// is wrong.
#include "sliding_point.h"

int main() { return SolveSlidingPoint() ? 0 : 1; }
