package main

import (
	"context"
	"log/slog"
)

func runDev(ctx context.Context, o *options, log *slog.Logger) int {
	log.Error("dev is not built yet")
	return 2
}
