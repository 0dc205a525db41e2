package render

import (
	"errors"
	"fmt"
	"html/template"
	"reflect"
	"text/template/parse"

	"folio/render/funcs"
)

// Hugo's try (0.141): {{ with try (EXPR) }} gives a value whose .Err says
// why EXPR failed and whose .Value is what it gave, where EXPR's error
// would otherwise stop the template. text/template evaluates a function's
// arguments before it calls the function, so try cannot be a function of
// its own: at load (rewriteTry), each `try (… CALL ARGS)` becomes
// `(… tryCall CALLEE "Name" ARGS)`, the pipeline's last call made through
// a function that turns its error, or its panic, into the TryValue. An
// error while evaluating the call's arguments is not caught; a try around
// something that is not a call (a variable, a literal) only wraps it.
const (
	fnTry     = "try"            // the name templates write
	fnTryCall = "__folio_try"    // tryCall, with the function's name
	fnTryVal  = "__folio_tryval" // a value that cannot fail, wrapped
)

// rewriteTry rewrites every try in the trees of set's templates.
func rewriteTry(set *template.Template) {
	for _, tm := range set.Templates() {
		rewriteTryTree(tm.Tree)
	}
}

// rewriteTryTree rewrites every try in one template's tree.
func rewriteTryTree(tree *parse.Tree) {
	walkTree(tree, func(n parse.Node) {
		cmd, ok := n.(*parse.CommandNode)
		if !ok || len(cmd.Args) != 2 {
			return
		}
		if id, ok := cmd.Args[0].(*parse.IdentifierNode); !ok || id.Ident != fnTry {
			return
		}
		arg := cmd.Args[1]
		if p, ok := arg.(*parse.PipeNode); ok && len(p.Decl) == 0 && len(p.Cmds) > 0 {
			last := p.Cmds[len(p.Cmds)-1]
			if call := tryCallArgs(last); call != nil {
				last.Args = call
			} else {
				p.Cmds = append(p.Cmds, &parse.CommandNode{NodeType: parse.NodeCommand, Pos: last.Pos,
					Args: []parse.Node{parse.NewIdentifier(fnTryVal).SetPos(last.Pos)}})
			}
			cmd.Args = []parse.Node{p}
			return
		}
		one := &parse.CommandNode{NodeType: parse.NodeCommand, Pos: cmd.Pos, Args: []parse.Node{arg}}
		if call := tryCallArgs(one); call != nil {
			cmd.Args = call
			return
		}
		cmd.Args[0] = parse.NewIdentifier(fnTryVal).SetPos(cmd.Args[0].Position())
	})
}

// tryCallArgs is cmd's call as tryCall's arguments: the callee (a
// function's name as a string, or the receiver of a method), the method's
// name ("" for a function) and cmd's own arguments. It is nil where cmd
// calls nothing.
func tryCallArgs(cmd *parse.CommandNode) []parse.Node {
	if len(cmd.Args) == 0 {
		return nil
	}
	pos := cmd.Args[0].Position()
	str := func(s string) parse.Node {
		return &parse.StringNode{NodeType: parse.NodeString, Pos: pos, Quoted: fmt.Sprintf("%q", s), Text: s}
	}
	head := []parse.Node{parse.NewIdentifier(fnTryCall).SetPos(pos)}
	rest := cmd.Args[1:]
	switch a := cmd.Args[0].(type) {
	case *parse.IdentifierNode:
		if a.Ident == fnTry || a.Ident == fnTryCall || a.Ident == fnTryVal {
			return nil
		}
		return append(append(head, str(a.Ident), str("")), rest...)
	case *parse.FieldNode: // .A.B x: B of .A
		recv := parse.Node(&parse.DotNode{NodeType: parse.NodeDot, Pos: a.Pos})
		if len(a.Ident) > 1 {
			recv = &parse.FieldNode{NodeType: parse.NodeField, Pos: a.Pos, Ident: a.Ident[:len(a.Ident)-1]}
		}
		return append(append(head, recv, str(a.Ident[len(a.Ident)-1])), rest...)
	case *parse.VariableNode: // $x.B y: B of $x
		if len(a.Ident) < 2 {
			return nil
		}
		recv := &parse.VariableNode{NodeType: parse.NodeVariable, Pos: a.Pos, Ident: a.Ident[:len(a.Ident)-1]}
		return append(append(head, recv, str(a.Ident[len(a.Ident)-1])), rest...)
	case *parse.ChainNode: // (x).B y, ns.F y: B of (x)
		recv := a.Node
		if len(a.Field) > 1 {
			recv = &parse.ChainNode{NodeType: parse.NodeChain, Pos: a.Pos, Node: a.Node, Field: a.Field[:len(a.Field)-1]}
		}
		if id, ok := recv.(*parse.IdentifierNode); ok {
			// A namespace (transform.Unmarshal): the function that gives
			// it, called with no arguments, is the receiver.
			recv = &parse.PipeNode{NodeType: parse.NodePipe, Pos: a.Pos,
				Cmds: []*parse.CommandNode{{NodeType: parse.NodeCommand, Pos: a.Pos, Args: []parse.Node{id}}}}
		}
		return append(append(head, recv, str(a.Field[len(a.Field)-1])), rest...)
	}
	return nil
}

// tryCall is the function fnTryCall names, for a template's functions m:
// it calls callee's method name with args (callee's function by that name
// when name is ""), and gives its value or why it failed. folio's own
// limits on a page's templates (errLimit) are not caught: they stop the
// page as they would without try.
func tryCall(m template.FuncMap) func(callee any, name string, args ...any) (funcs.TryValue, error) {
	return func(callee any, name string, args ...any) (out funcs.TryValue, err error) {
		defer func() {
			if r := recover(); r != nil {
				out, err = funcs.TryFailed(fmt.Errorf("%v", r)), nil
			}
		}()
		var fn reflect.Value
		if name == "" {
			s, _ := callee.(string)
			f, ok := m[s]
			if !ok {
				return funcs.TryFailed(fmt.Errorf("function %q not defined", s)), nil
			}
			fn = reflect.ValueOf(f)
		} else {
			fn = method(callee, name)
			if !fn.IsValid() {
				if len(args) == 0 {
					if v, ok := field(callee, name); ok {
						return funcs.TryOK(v), nil
					}
				}
				return funcs.TryFailed(fmt.Errorf("can't evaluate field %s in type %T", name, callee)), nil
			}
		}
		v, err := callReflect(fn, args)
		if errors.Is(err, errLimit) {
			return funcs.TryValue{}, err
		}
		if err != nil {
			return funcs.TryFailed(err), nil
		}
		return funcs.TryOK(v), nil
	}
}

// method is recv's method name, through a pointer too.
func method(recv any, name string) reflect.Value {
	v := reflect.ValueOf(recv)
	if !v.IsValid() {
		return reflect.Value{}
	}
	if m := v.MethodByName(name); m.IsValid() {
		return m
	}
	if v.Kind() != reflect.Pointer && v.CanAddr() {
		return v.Addr().MethodByName(name)
	}
	return reflect.Value{}
}

// field is recv's field or map key name, as a template's .name finds it.
func field(recv any, name string) (any, bool) {
	v := reflect.Indirect(reflect.ValueOf(recv))
	switch v.Kind() {
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return nil, false
		}
		e := v.MapIndex(reflect.ValueOf(name).Convert(v.Type().Key()))
		if !e.IsValid() {
			return nil, true // as a template's missing key: no value
		}
		return e.Interface(), true
	case reflect.Struct:
		if f := v.FieldByName(name); f.IsValid() && f.CanInterface() {
			return f.Interface(), true
		}
	}
	return nil, false
}

// callReflect calls fn with args converted as text/template converts them
// (nil to a zero value, numbers between kinds), returning its value and
// its error (a function's last result, when an error).
func callReflect(fn reflect.Value, args []any) (any, error) {
	t := fn.Type()
	n := t.NumIn()
	if t.IsVariadic() {
		if len(args) < n-1 {
			return nil, fmt.Errorf("wrong number of args: got %d, want at least %d", len(args), n-1)
		}
	} else if len(args) != n {
		return nil, fmt.Errorf("wrong number of args: got %d, want %d", len(args), n)
	}
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		var pt reflect.Type
		if t.IsVariadic() && i >= n-1 {
			pt = t.In(n - 1).Elem()
		} else {
			pt = t.In(i)
		}
		v := reflect.ValueOf(a)
		switch {
		case !v.IsValid():
			switch pt.Kind() {
			case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
				v = reflect.Zero(pt)
			default:
				return nil, fmt.Errorf("invalid value; expected %s", pt)
			}
		case v.Type().AssignableTo(pt):
		case isNumber(v.Kind()) && isNumber(pt.Kind()):
			v = v.Convert(pt)
		default:
			return nil, fmt.Errorf("wrong type for value; expected %s; got %s", pt, v.Type())
		}
		in[i] = v
	}
	out := fn.Call(in)
	errType := reflect.TypeFor[error]()
	switch {
	case len(out) == 2 && t.Out(1) == errType:
		if !out[1].IsNil() {
			return nil, out[1].Interface().(error)
		}
		return out[0].Interface(), nil
	case len(out) == 1 && t.Out(0) == errType:
		if !out[0].IsNil() {
			return nil, out[0].Interface().(error)
		}
		return nil, nil
	case len(out) >= 1:
		return out[0].Interface(), nil
	}
	return nil, nil
}

func isNumber(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Float64
}
