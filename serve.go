package main

import (
	"context"
	"log/slog"
)

func runServe(ctx context.Context, o *options, log *slog.Logger) int {
	log.Error("serve is not built yet")
	return 2
}
