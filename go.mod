module folio

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/alecthomas/chroma/v2 v2.27.0
	github.com/fsnotify/fsnotify v1.10.1
	github.com/gobuffalo/flect v1.0.3
	github.com/gohugoio/hugo v0.165.0
	github.com/jdkato/prose v1.2.1
	github.com/klauspost/compress v1.20.3
	github.com/mmcdole/gofeed v1.4.2
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/yuin/goldmark v1.8.5
)

require github.com/yuin/goldmark-emoji v1.0.6

require rsc.io/qr v0.2.0

require (
	github.com/bep/goat v0.5.0
	github.com/gohugoio/hugo-goldmark-extensions/extras v0.7.0
	github.com/gohugoio/hugo-goldmark-extensions/passthrough v0.5.0
)

require (
	github.com/getkin/kin-openapi v0.152.0
	github.com/oasdiff/yaml v0.1.1 // indirect
	github.com/oasdiff/yaml3 v0.0.14 // indirect
)

require (
	github.com/bep/godartsass/v2 v2.5.0 // indirect
	github.com/bep/golibsass v1.2.0 // indirect
	github.com/bits-and-blooms/bitset v1.24.5 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/clbanning/mxj/v2 v2.7.0 // indirect
	github.com/dlclark/regexp2/v2 v2.2.1
	github.com/go-openapi/jsonpointer v0.23.2 // indirect
	github.com/go-openapi/swag/jsonname v0.26.1 // indirect
	github.com/gobwas/glob v0.2.3
	github.com/goccy/go-yaml v1.19.2
	github.com/gohugoio/hashstructure v1.0.0 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/mmcdole/goxpp/v2 v2.0.0 // indirect
	github.com/niklasfasching/go-org v1.9.1
	github.com/pmezard/go-difflib v1.0.1-0.20181226105442-5d4384ee4fb2 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/spf13/afero v1.15.0 // indirect
	github.com/spf13/cast v1.10.0
	github.com/tdewolff/parse/v2 v2.8.15 // indirect
	go.yaml.in/yaml/v4 v4.0.0-rc.6
	golang.org/x/net v0.57.0
	golang.org/x/sync v0.23.0 // indirect
	golang.org/x/sys v0.47.0
	golang.org/x/text v0.40.0
	google.golang.org/protobuf v1.36.11 // indirect
)
