//go:build !linux

package main

// memoryBudget is the memory this process may use: not known here.
func memoryBudget() int64 { return 0 }
