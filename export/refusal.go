package export

// A Refusal is one of the server's refusal rows, which answer a path
// that names nothing: the first whose literal prefix and suffix fit the
// path decides whether the 404 is a problem (else the 404 page) and
// whether it carries CORS. The Worker and the nginx script read the
// rows as data, in the route table's order, so that a static host
// refuses a path as the server's table does (build.go makes them from
// server.Routes).
type Refusal struct {
	Prefix  string `json:"prefix"`
	Suffix  string `json:"suffix"`
	CORS    bool   `json:"cors"`
	Problem bool   `json:"problem"`
}
