package isolate

import (
	"go/types"
	"strings"
)

// The default policy for the standard library: which of its functions and
// methods act on the environment (docs/isolate.md lists them). Everything
// else of the standard library (strings, strconv, bytes, sort, fmt's
// formatting, encoding/..., time.Time's methods) is pure enough to stay
// real: dowse follows or models it, and existing targets keep their
// deep paths.

// effectPkgs are the packages all of whose functions and methods act on
// the environment, except those listed in pureFuncs and pureTypes.
var effectPkgs = map[string]bool{
	"os": true, "os/exec": true, "os/signal": true, "os/user": true,
	"io/ioutil": true, "io/fs": true, "syscall": true,
	"net": true, "net/http": true, "net/rpc": true, "net/smtp": true,
	"database/sql": true, "database/sql/driver": true,
	"crypto/rand": true,
}

// effectFuncs are the functions of other packages that act on the
// environment (the clock, the global random source, the file system).
var effectFuncs = map[string]bool{
	"time.Now": true, "time.Since": true, "time.Until": true, "time.Sleep": true,
	"time.After": true, "time.AfterFunc": true, "time.NewTimer": true,
	"time.NewTicker": true, "time.Tick": true, "time.LoadLocation": true,
	"path/filepath.Glob": true, "path/filepath.Walk": true, "path/filepath.WalkDir": true,
	"path/filepath.Abs": true, "path/filepath.EvalSymlinks": true,
}

// pureFuncs are functions of effectPkgs that only compute.
var pureFuncs = map[string]bool{
	"os.IsExist": true, "os.IsNotExist": true, "os.IsPermission": true, "os.IsTimeout": true,
	"os.NewSyscallError": true, "io/fs.ValidPath": true, "io/fs.FormatFileInfo": true,
	"io/fs.FormatDirEntry": true,
	"net.ParseIP":          true, "net.ParseCIDR": true, "net.SplitHostPort": true, "net.JoinHostPort": true,
	"net.IPv4": true, "net.IPv4Mask": true, "net.CIDRMask": true, "net.ParseMAC": true,
	"net/http.StatusText": true, "net/http.CanonicalHeaderKey": true, "net/http.NewRequest": true,
	"net/http.NewRequestWithContext": true, "net/http.Error": true, "net/http.NotFound": true,
	"net/http.Redirect": true, "net/http.DetectContentType": true, "net/http.ParseHTTPVersion": true,
	"net/http.ParseTime": true, "net/http.MaxBytesReader": true,
}

// pureTypes are the types of effectPkgs whose methods only compute: data,
// and the errors of these packages.
var pureTypes = map[string]bool{
	"io/fs.FileMode": true, "os.FileMode": true, "io/fs.PathError": true, "os.PathError": true,
	"os.LinkError": true, "os.SyscallError": true, "syscall.Errno": true, "syscall.Signal": true,
	"net.IP": true, "net.IPMask": true, "net.IPNet": true, "net.HardwareAddr": true,
	"net/http.Header": true, "net/http.Cookie": true, "net/http.Request": true,
	"net/http.Response": true, "net/http.ResponseWriter": true, "net/http.Handler": true,
	"net/http.HandlerFunc": true, "net/http.ServeMux": true,
	"database/sql.NullString": true, "database/sql.NullInt64": true, "database/sql.NullInt32": true,
	"database/sql.NullInt16": true, "database/sql.NullBool": true, "database/sql.NullFloat64": true,
	"database/sql.NullTime": true, "database/sql.NullByte": true, "database/sql.RawBytes": true,
}

// randPkgs are the packages whose package-level functions draw from a
// global random source; their constructors and the methods of a source
// the code seeded itself are deterministic.
var randPkgs = map[string]bool{"math/rand": true, "math/rand/v2": true}

// StdEffect reports whether fn, a function or method of the standard
// library, acts on the environment by the default policy.
func StdEffect(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	sig, _ := fn.Type().(*types.Signature)
	var recv string
	if sig != nil && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			recv = n.Obj().Name()
		}
	}
	switch {
	case randPkgs[path]:
		return recv == "" && !strings.HasPrefix(fn.Name(), "New")
	case effectPkgs[path]:
		if recv == "" {
			return !pureFuncs[path+"."+fn.Name()]
		}
		return !pureTypes[path+"."+recv] && !strings.HasSuffix(recv, "Error")
	case recv == "":
		return effectFuncs[path+"."+fn.Name()]
	case path == "time":
		return recv == "Timer" || recv == "Ticker"
	}
	return false
}
