// Package mapfile maps a file read-only into memory for a process that
// ends with the work it reads the file for (folio build's parse cache and
// build record): the pages are read in at once and never unmapped, so
// strings may point into them. Such a file must only ever be replaced by
// a rename, never written in place: a file cut short under the mapping
// ends the process (SIGBUS), as a kill would. Where the system cannot map
// it, Map says so and the caller reads the file.
package mapfile
