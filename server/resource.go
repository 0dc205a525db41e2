package server

import "errors"

// maxMemoResource is the largest file of the site kept in memory as a
// prepared representation. Larger ones (video, archives) are streamed
// from the site's folder on each request, with Range support.
const maxMemoResource = 4 << 20

// errLarge marks a file too large to keep in memory.
var errLarge = errors.New("large file")
