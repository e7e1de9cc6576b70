package ring

// Stats counts named events. The zero value is ready to use.
type Stats struct {
	counts map[string]int
	last   *event
}

type event struct{ name string }

// Add counts an event.
func (s *Stats) Add(name string) {
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	s.counts[name]++
	s.last = &event{name: name}
}

// Last is the name of the last event counted.
func (s *Stats) Last() string {
	return s.last.name
}
