// Package config decodes a small line-oriented configuration format into
// nested structs.
//
//	title demo
//	env prod
//	server web 80 443
//	server db 5432
package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Config is a whole configuration file.
type Config struct {
	Title string
	Envs  []Env
}

// Env is one environment: its servers.
type Env struct {
	Name    string
	Servers []Server
}

// Server is one server of an environment.
type Server struct {
	Name   string
	Ports  []int
	Labels map[string]string
	Limits []Limit
}

// Limit is a named bound on a server.
type Limit struct {
	Key string
	Max int
}

// ErrTarget is returned when the destination is not a *Config.
var ErrTarget = errors.New("config: destination must be a non-nil *Config")

// Decode parses data into v, which must be a *Config. Existing
// environments of the destination are kept and new ones appended.
func Decode(data []byte, v any) error {
	cfg, ok := v.(*Config)
	if !ok || cfg == nil {
		return ErrTarget
	}
	for n, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "title":
			if len(fields) != 2 {
				return fmt.Errorf("line %d: title takes one word", n+1)
			}
			cfg.Title = fields[1]
		case "env":
			if len(fields) != 2 {
				return fmt.Errorf("line %d: env takes a name", n+1)
			}
			cfg.Envs = append(cfg.Envs, Env{Name: fields[1]})
		case "server":
			if len(cfg.Envs) == 0 {
				return fmt.Errorf("line %d: server outside an env", n+1)
			}
			if len(fields) < 2 {
				return fmt.Errorf("line %d: server needs a name", n+1)
			}
			s := Server{Name: fields[1]}
			for _, f := range fields[2:] {
				p, err := strconv.Atoi(f)
				if err != nil || p <= 0 || p > 65535 {
					return fmt.Errorf("line %d: bad port %q", n+1, f)
				}
				s.Ports = append(s.Ports, p)
			}
			env := &cfg.Envs[len(cfg.Envs)-1]
			env.Servers = append(env.Servers, s)
		default:
			return fmt.Errorf("line %d: unknown key %q", n+1, fields[0])
		}
	}
	return nil
}

// Ports lists the ports of every server in every environment of cfg: at
// most as many as a server's "ports" limit, if it has one first.
func Ports(cfg *Config) []int {
	var out []int
	for _, e := range cfg.Envs {
		for _, s := range e.Servers {
			ports := s.Ports
			if len(s.Limits) > 0 && s.Limits[0].Key == "ports" {
				ports = ports[:s.Limits[0].Max]
			}
			out = append(out, ports...)
		}
	}
	return out
}
