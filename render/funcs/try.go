package funcs

// TryValue is what Hugo's try gives (render's rewriteTry makes the
// calls): Value, what the expression gave, and Err, why it failed.
type TryValue struct {
	value any
	err   error
}

// TryOK is the TryValue of an expression that gave v.
func TryOK(v any) TryValue { return TryValue{value: v} }

// TryFailed is the TryValue of an expression that failed with err.
func TryFailed(err error) TryValue { return TryValue{err: err} }

// Value is what the expression gave, nil when it failed.
func (t TryValue) Value() any { return t.value }

// Err is the error's text when the expression failed, else nil (so that
// {{ with .Err }} tests it).
func (t TryValue) Err() any {
	if t.err == nil {
		return nil
	}
	return t.err.Error()
}
