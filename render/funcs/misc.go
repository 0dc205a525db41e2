package funcs

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash"
	"hash/fnv"
	"html/template"
	"path"
	"reflect"
	"strconv"
	"strings"

	"folio/pipeline"
)

// cryptoNS is Hugo's crypto namespace: hex digests.
type cryptoNS struct{ n *namespaces }

func digest(h hash.Hash, v any) (string, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	h.Write([]byte(s))
	return hex.EncodeToString(h.Sum(nil)), nil
}

func (c *cryptoNS) MD5(v any) (string, error)    { return digest(md5.New(), v) }
func (c *cryptoNS) SHA1(v any) (string, error)   { return digest(sha1.New(), v) }
func (c *cryptoNS) SHA256(v any) (string, error) { return digest(sha256.New(), v) }

// HMAC is hmac HASH KEY MESSAGE [ENCODING].
func (c *cryptoNS) HMAC(name, key, msg any, encoding ...any) (string, error) {
	n, _ := toString(name)
	k, err1 := toString(key)
	m, err2 := toString(msg)
	if err := errors.Join(err1, err2); err != nil {
		return "", err
	}
	var f func() hash.Hash
	switch n {
	case "md5":
		f = md5.New
	case "sha1":
		f = sha1.New
	case "sha256":
		f = sha256.New
	case "sha512":
		f = sha512.New
	default:
		return "", errors.New("hmac: unknown hash " + n)
	}
	h := hmac.New(f, []byte(k))
	h.Write([]byte(m))
	if len(encoding) > 0 {
		if e, _ := toString(encoding[0]); e == "binary" {
			return string(h.Sum(nil)), nil
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashNS is Hugo's hash namespace.
type hashNS struct{ n *namespaces }

// FNV32a is the 32-bit FNV-1a hash of a string.
func (h *hashNS) FNV32a(v any) (int, error) {
	s, err := toString(v)
	if err != nil {
		return 0, err
	}
	f := fnv.New32a()
	f.Write([]byte(s))
	return int(f.Sum32()), nil
}

// encodingNS is Hugo's encoding namespace.
type encodingNS struct{ n *namespaces }

func (e *encodingNS) Base64Encode(v any) (string, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	return e.n.sizedString(base64.StdEncoding.EncodeToString([]byte(s)), nil)
}

func (e *encodingNS) Base64Decode(v any) (string, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	b, err := base64.StdEncoding.DecodeString(s)
	return string(b), err
}

// Jsonify encodes a value as JSON, indented when options ask
// (dict "indent" "  "); the result is safe HTML, as Hugo's.
func (e *encodingNS) Jsonify(args ...any) (template.HTML, error) {
	var v any
	prefix, indent := "", ""
	switch len(args) {
	case 1:
		v = args[0]
	case 2:
		v = args[1]
		if m, ok := toMap(args[0]); ok {
			prefix, _ = toString(m["prefix"])
			indent, _ = toString(m["indent"])
			if m["noHTMLEscape"] != nil || m["noHTMLescape"] != nil {
				return jsonNoEscape(v, prefix, indent)
			}
		}
	default:
		return "", errors.New("jsonify takes 1 or 2 arguments")
	}
	var b []byte
	var err error
	if prefix != "" || indent != "" {
		b, err = json.MarshalIndent(v, prefix, indent)
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		return "", err
	}
	s, err := e.n.sizedString(string(b), nil)
	return template.HTML(s), err
}

func jsonNoEscape(v any, prefix, indent string) (template.HTML, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, indent)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return template.HTML(strings.TrimSuffix(b.String(), "\n")), nil
}

// inflectNS is Hugo's inflect namespace, for English words.
type inflectNS struct{ n *namespaces }

// Humanize is Hugo's: an integer (or a string of one) with its ordinal
// suffix ("3" → "3rd"), else flect's Humanize of the lower-cased
// Humanize ("my-first-post" → "My first post").
func (i *inflectNS) Humanize(v any) (string, error) {
	s, err := toString(v)
	if err != nil || s == "" {
		return s, err
	}
	if _, isInt := v.(int); isInt {
		return pipeline.Ordinalize(s), nil
	}
	if _, err := strconv.Atoi(s); err == nil {
		return pipeline.Ordinalize(s), nil
	}
	return pipeline.Humanize(strings.ToLower(pipeline.Humanize(s))), nil
}

// Pluralize is Hugo's: flect's rules and dictionary ("child" →
// "children", "datum" → "data", "news" → "news").
func (i *inflectNS) Pluralize(v any) (string, error) {
	s, err := toString(v)
	if err != nil {
		return s, err
	}
	return pipeline.Pluralize(s), nil
}

// Singularize is Hugo's: flect's ("people" → "person", "data" →
// "datum").
func (i *inflectNS) Singularize(v any) (string, error) {
	s, err := toString(v)
	if err != nil {
		return s, err
	}
	return pipeline.Singularize(s), nil
}

// langNS is Hugo's lang namespace: T and i18n.
type langNS struct{ n *namespaces }

// Translate is the translation of key, from the site's i18n files.
func (l *langNS) Translate(key any, args ...any) (string, error) {
	k, err := toString(key)
	if err != nil {
		return "", err
	}
	var ctx any
	if len(args) > 0 {
		ctx = args[0]
	}
	return l.n.env().Translate(k, ctx), nil
}

// pathNS is Hugo's path namespace.
type pathNS struct{ n *namespaces }

func (p *pathNS) Base(v any) (string, error)  { return pathOp(v, path.Base) }
func (p *pathNS) Dir(v any) (string, error)   { return pathOp(v, path.Dir) }
func (p *pathNS) Ext(v any) (string, error)   { return pathOp(v, path.Ext) }
func (p *pathNS) Clean(v any) (string, error) { return pathOp(v, path.Clean) }
func (p *pathNS) BaseName(v any) (string, error) {
	return pathOp(v, func(s string) string { return strings.TrimSuffix(path.Base(s), path.Ext(s)) })
}

// Join joins path elements.
func (p *pathNS) Join(elements ...any) (string, error) {
	var parts []string
	for _, e := range flatten(elements) {
		s, err := toString(e)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	return path.Join(parts...), nil
}

// Split splits a path into its folder and file.
func (p *pathNS) Split(v any) (map[string]string, error) {
	s, err := toString(v)
	dir, file := path.Split(s)
	return map[string]string{"Dir": dir, "File": file}, err
}

func pathOp(v any, f func(string) string) (string, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	return f(strings.ReplaceAll(s, `\`, "/")), nil
}

// reflectNS is Hugo's reflect namespace.
type reflectNS struct{ n *namespaces }

func (r *reflectNS) IsMap(v any) bool { return reflect.ValueOf(v).Kind() == reflect.Map }
func (r *reflectNS) IsSlice(v any) bool {
	k := reflect.ValueOf(v).Kind()
	return k == reflect.Slice || k == reflect.Array
}

// partialsNS is Hugo's partials namespace: partial, partialCached and
// return.
type partialsNS struct{ n *namespaces }

// Include executes a partial of the site with a context.
func (p *partialsNS) Include(name string, ctx ...any) (any, error) {
	var c any
	if len(ctx) > 0 {
		c = ctx[0]
	}
	return p.n.env().Partial(name, c)
}

// IncludeCached is Include: folio renders each page once anyway.
func (p *partialsNS) IncludeCached(name string, ctx any, variants ...any) (any, error) {
	return p.n.env().Partial(name, ctx)
}

// Return ends a partial with a value, as Hugo's return statement.
func (p *partialsNS) Return(v ...any) (any, error) {
	var out any
	if len(v) > 0 {
		out = v[0]
	}
	return nil, &Returned{Value: out}
}

// Returned is the error that carries a partial's return value out of its
// execution.
type Returned struct{ Value any }

func (r *Returned) Error() string { return "return outside a partial" }

// templatesNS is Hugo's templates namespace.
type templatesNS struct{ n *namespaces }

// Exists reports whether the site has the template: a partial, by path
// ("partials/x.html", "_partials/x.html").
func (t *templatesNS) Exists(name string) bool {
	name = strings.TrimPrefix(strings.TrimPrefix(name, "_partials/"), "partials/")
	return t.n.env().PartialExists(name)
}
