# Varnish in front of folio serve (Varnish 6 and 7).
#
# folio's pages answer HTML to browsers and Markdown to agents from one URL
# and say Vary: Accept. Varnish honours that, but keeps one copy per
# distinct Accept header, and every browser version and agent sends its
# own. This VCL writes the common headers as the one they mean before the
# lookup, so a page is cached twice (HTML, Markdown), not once per client:
#
#   - text/markdown named with no q (so with q=1, which no other type can
#     beat: folio gives a tie to Markdown): "text/markdown";
#   - no Markdown named, nothing refused with q=0, and text/html or */*
#     named (every browser, curl) or no Accept at all: "text/html".
#
# Anything else (q-values that could change folio's choice, Accept headers
# that allow neither and get 406) reaches folio as it was sent. Answers
# that do not negotiate (the API, feeds, .md URLs) do not vary on Accept,
# so the rewrite does not touch how they are cached.

vcl 4.1;

backend folio {
    .host = "127.0.0.1";
    .port = "8080";
}

sub vcl_recv {
    if (!req.http.Accept || req.http.Accept ~ "^\s*$") {
        set req.http.Accept = "text/html";
    } elsif (req.http.Accept ~ "(?i)(^|,)\s*text/markdown\s*(;\s*charset\s*=\s*[^,;]*)?\s*(,|$)") {
        set req.http.Accept = "text/markdown";
    } elsif (req.http.Accept !~ "(?i)markdown"
          && req.http.Accept !~ "(?i);\s*q\s*=\s*0(\.0*)?\s*(,|;|$)"
          && req.http.Accept ~ "(?i)(text/html|\*/\*)") {
        set req.http.Accept = "text/html";
    }
}
