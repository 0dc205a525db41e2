package main

import "log/slog"

func runBuild(o *options, log *slog.Logger) int {
	log.Error("build is not built yet")
	return 2
}
