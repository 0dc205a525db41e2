// Package cputime gives the benchmarks the CPU time the process has used:
// on a shared machine, CPU time per operation is the figure that other
// people's load disturbs least. Where it is not measured (no getrusage),
// Used is 0 and the benchmarks report 0 CPU per op.
package cputime
