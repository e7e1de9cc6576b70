// Package store reaches the environment: a file, the clock, the network.
package store

import (
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// Limit reads the limit from the file named by LIMIT_FILE.
func Limit() (int, error) {
	data, err := os.ReadFile(os.Getenv("LIMIT_FILE"))
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(data)))
}

// Hour is the current hour.
func Hour() int { return clock().Hour() }

func clock() time.Time { return time.Now() }

// Quote is what the quote service answers.
type Quote struct {
	Price int
	Note  string
}

// Client talks to the quote service.
type Client struct{ addr string }

// Dial makes a client of the quote service at addr.
func Dial(addr string) *Client { return &Client{addr: addr} }

// Fill asks the service about q.Price and fills in q.
func (c *Client) Fill(q *Quote) error {
	conn, err := net.Dial("tcp", c.addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	q.Price, q.Note = q.Price+1, "quoted"
	return nil
}

// Describe only reads q.
func (c *Client) Describe(q *Quote) string { return strconv.Itoa(q.Price) + q.Note }
