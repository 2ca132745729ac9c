// Package netcut is the network between a terminal and its table server, for tests and the
// crash harness: a TCP proxy on loopback that can cut every connection through it (and refuse
// new ones) and restore the link, as a pulled cable or a failed switch would.
package netcut

import (
	"io"
	"net"
	"sync"
)

// Proxy forwards connections made to Addr to its target until Cut.
type Proxy struct {
	lis    net.Listener
	target string
	mu     sync.Mutex
	down   bool
	conns  map[net.Conn]bool
}

// New starts a proxy on a free loopback port to target.
func New(target string) (*Proxy, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{lis: l, target: target, conns: map[net.Conn]bool{}}
	go p.serve()
	return p, nil
}

// Addr is the address to dial instead of the target.
func (p *Proxy) Addr() string { return p.lis.Addr().String() }

func (p *Proxy) serve() {
	for {
		in, err := p.lis.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		down := p.down
		p.mu.Unlock()
		if down {
			in.Close()
			continue
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			in.Close()
			continue
		}
		p.mu.Lock()
		p.conns[in], p.conns[out] = true, true
		p.mu.Unlock()
		pipe := func(dst, src net.Conn) {
			io.Copy(dst, src)
			dst.Close()
			src.Close()
		}
		go pipe(in, out)
		go pipe(out, in)
	}
}

// Cut drops every connection through the proxy and refuses new ones until Restore.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// Restore lets new connections through again.
func (p *Proxy) Restore() {
	p.mu.Lock()
	p.down = false
	p.mu.Unlock()
}

// Close cuts the link for good and stops listening.
func (p *Proxy) Close() { p.Cut(); p.lis.Close() }
