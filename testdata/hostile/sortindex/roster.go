// Package roster ranks the players of a league by score.
package roster

import "sort"

// Player is a player's name and score.
type Player struct {
	Name  string
	Score int
}

// ByScore orders players by descending score, then by name.
type ByScore []Player

func (s ByScore) Len() int { return len(s) }

func (s ByScore) Less(i, j int) bool {
	if s[i].Score != s[j].Score {
		return s[i].Score > s[j].Score
	}
	return s[i].Name < s[j].Name
}

func (s ByScore) Swap(i, j int) { s[i], s[j] = s[j], s[i] }

// Top returns the n best of players, best first.
func Top(players []Player, n int) []Player {
	ranked := append([]Player(nil), players...)
	sort.Sort(ByScore(ranked))
	if n > len(ranked) {
		n = len(ranked)
	}
	return ranked[:n]
}
