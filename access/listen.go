package access

import (
	"errors"
	"fmt"
	"net"
	"syscall"
)

// ErrInUse is the error of Listen on a port in use.
var ErrInUse = errors.New("the port is in use")

// Listen opens the TCP port of one of gloved's HTTP servers at addr
// ("127.0.0.1:0" picks a free port). A port in use is ErrInUse; the
// error names addr, and the caller prefixes its own package.
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("%s: %w", addr, ErrInUse)
		}
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	return ln, nil
}
