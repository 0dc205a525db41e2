// Package watch tells folio dev (and folio serve --watch) what changed on
// disk. It is the only code in folio that knows about real folders and
// file notifications; everything downstream takes the batches it delivers
// and reads through an fs.FS.
//
// # Use
//
//	w, err := watch.NewRoots([]watch.Root{
//		{Path: contentDir},                                 // 0: the folder and all below it
//		{Path: siteDir},                                    // 1
//		{Path: projectDir, Names: []string{"config.toml"}}, // 2: that name in that folder only
//	}, watch.Options{})
//	snap, err := pipeline.Build(os.DirFS(contentDir), cfg, opts, time.Now())
//	for batches := range w.Batches() {
//		for _, b := range batches {
//			// b.Index == 0: b.Rescan ? Build again : snap.Update(b.Paths, now)
//			// b.Index == 1 or 2: reload those, rebuild
//		}
//	}
//
// New(paths, opts) is the same for folder and file roots given by path.
// Start the Watcher before the first build, so that nothing changed
// between the build and the first watch goes unseen.
//
// # Roots
//
// A Root is one of three kinds:
//
//   - a folder, watched with every folder below it (Options.Ignore
//     leaves some out);
//   - a file, which must exist at start, watched through its folder and
//     filtered to its name; its Paths are ["."];
//   - a names-only root (Root.Names set): a folder watched by itself, not
//     recursively, that reports only the entries with those names, files
//     or folders, created, written, removed or renamed to or away, whether
//     or not they exist at start, and not what happens inside a named
//     folder. Options.Ignore does not apply: the names were asked for.
//     folio dev watches the config file this way (it may be created after
//     start, and is replaced by a rename when saved), and the content and
//     site folders themselves in the folders that hold them (a folder
//     replaced is seen even while a handle keeps the old one alive),
//     without watching the rest of a project folder (.git, a Go module).
//
// Every root, of every kind, feeds the same bursts: a change that touches
// several roots (git writing config.toml, then 200 posts) is one
// delivery, with one Batch per root. Two Watchers would each end their
// own burst, and the first delivery would be half of the change. Roots may
// share a folder (a config file inside the content folder is reported by
// both its roots); Batch.Index tells which root a Batch is for.
//
// # Folders, not files
//
// Most editors save by writing a new file and renaming it over the old
// one (vim, JetBrains, sed -i, atomic-write libraries). A watch on a file
// follows the file, not its name: after such a save it watches the backup
// or a deleted file and sees no further saves. So the Watcher watches
// folders only, and file and names-only roots are watched through their
// folder, filtered to their names.
//
// fsnotify does not recurse, so the Watcher keeps one watch per folder:
// every folder below each folder root at start, each new folder as it
// appears, and none for ignored folders such as .git. A new folder is
// reported as the folder: its files may have been written before its
// watch was in place, and they produce no events, so the consumer reads
// the folder again whole (pipeline.Snapshot.Update re-scans a folder it
// is given). The folder is watched before it is listed, so nothing falls
// between the two. A removed or renamed folder loses its watches and
// those of every folder below it; inotify would otherwise keep reporting
// a renamed folder's subfolders under their old names.
//
// # Bursts
//
// Changes come in bursts: a save is a handful of events within a
// millisecond (vim's is about ten: a probe file, a rename to the backup, a
// new file, a write, a chmod, the backup's removal), a git checkout of
// 1,000 posts is 3,000 events over about 270 milliseconds, with pauses of
// up to 5 milliseconds between them on a quiet machine and 13 on a busy
// one. Each burst is one delivery, so one rebuild and one browser reload.
//
// A burst ends after a silence of Quiet (4ms) plus half its length so
// far, at most 200ms: a save is delivered 4ms after its last event, while
// the silence a long burst must keep grows as it runs (about 140ms at
// 270ms), so its small pauses do not cut it into pieces. Two things make
// the wait longer where a short one would deliver half a change:
//
//   - Options.Hold: folio dev holds bursts while git's index.lock exists.
//     git creates it before the first file of a checkout, merge or reset
//     and renames it away after the last, so a checkout is one
//     delivery however long git is descheduled in the middle (on a busy
//     machine, a 4ms quiet time alone split some checkouts of 1,000
//     posts). A lock there for MaxDelay is taken for one a crashed git
//     left behind, and holds nothing more.
//   - A burst that leaves a path removed or renamed away ends after 20ms
//     of silence at least: editors that save by renaming the old file to
//     a backup before writing the new one (vim, Emacs, JetBrains) are
//     between their two steps, and a delivery there would show the post
//     deleted until the next one.
//
// MaxDelay (5s) bounds a burst that never falls silent. An event already
// waiting when the silence runs out still joins the burst: the reader was
// late, not the writer. A burst that ends while the consumer is still busy
// with the previous delivery is merged into it.
//
// Paths are reported relative to their root, sorted and without
// duplicates; a path below a reported folder is left out, since the folder
// is read again whole. Editor noise is never reported: swap, backup,
// lock and autosave files (DefaultIgnore), and files that came and went
// within the burst under a tool's temporary name (sed -i's "sedXXXXXX",
// vim's probe "5036", JetBrains' "x.md___jb_tmp___", "x.md.tmp"), which
// are reported when they stay, since Hugo publishes them. A rename of a
// temporary file onto a real name reports the real name.
//
// # Lost events and limits
//
// The kernel queues a limited number of events (fs.inotify.max_queued_events);
// when a burst overflows it, events are lost and fsnotify reports
// ErrEventOverflow. Folders made meanwhile were never watched, so the
// Watcher drops every watch, watches every root again, and delivers a
// Batch with Rescan set for every root, with a warning that says what to
// raise. Any other notification error is handled the same way.
//
// Each folder takes one watch out of fs.inotify.max_user_watches. When
// adding one fails on that limit (ENOSPC), the Watcher logs a warning that
// says how to raise it, delivers a Rescan for the root, and polls the
// folders it could not watch every Poll (1s): it tries to watch them again
// and meanwhile compares their listings. A root folder that is removed is
// polled the same way until it comes back, and each is a Rescan (for a
// file root, Paths ["."]). Slower, never a silent stall.
package watch
