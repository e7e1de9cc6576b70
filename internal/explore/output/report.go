package output

import (
	"fmt"
	"strings"

	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/rt"
)

// BranchSite is one branch site of a target's binary with what became of
// its two outcomes, for the HTML report (internal/report): True and
// False are OutcomeCovered, OutcomeInfeasible or OutcomeOpen.
type BranchSite struct {
	Pos   string `json:"pos"` // file:line:column
	Kind  string `json:"kind"`
	True  string `json:"true"`
	False string `json:"false"`
}

// What became of a branch outcome (BranchSite).
const (
	OutcomeCovered    = "covered"    // some run took it
	OutcomeInfeasible = "infeasible" // proven infeasible on a path that reached the branch
	OutcomeOpen       = "open"       // neither
)

// Row is one row of a target: a run that took a distinct path.
type Row struct {
	Run   int    `json:"run"`
	Input string `json:"input"`
	// Go is the input as the generated test writes it, parameter by
	// parameter ("b: []byte(\"B\")"), when known.
	Go     string `json:"go,omitempty"`
	Status string `json:"status"` // pass, fail, panic, exit, timeout, skip
	// Result is what the run ended with: the failure messages and the
	// panic's position, or an automatic target's results.
	Result string `json:"result,omitempty"`
}

// reportData is what the HTML report needs of rep beyond the summary:
// every branch site of the binary with its outcomes, and the rows.
func reportData(t *load.Target, rep *explore.Report, opts Options) ([]BranchSite, []Row) {
	state := map[explore.Branch]string{}
	for _, b := range rep.Infeasible {
		state[b] = OutcomeInfeasible
	}
	for _, b := range rep.Covered {
		state[b] = OutcomeCovered
	}
	get := func(id uint32, taken bool) string {
		if s, ok := state[explore.Branch{Site: id, Taken: taken}]; ok {
			return s
		}
		return OutcomeOpen
	}
	var sites []BranchSite
	for _, s := range opts.Sites {
		if !s.Branch() {
			continue
		}
		pos := Rel(opts.Dir, fmt.Sprintf("%s:%d:%d", s.Pos.Filename, s.Pos.Line, s.Pos.Column))
		sites = append(sites, BranchSite{Pos: pos, Kind: s.Kind, True: get(s.ID, true), False: get(s.ID, false)})
	}
	var outLeaves []rt.Leaf
	if t.Layout != nil && len(t.Layout.Outputs()) > 0 {
		outLeaves, _ = t.Layout.OutputLayout().Leaves()
	}
	var rows []Row
	for i, r := range rep.Rows {
		row := Row{Run: r.Run, Input: explore.InputText(rep.Leaves, r.Inputs), Status: r.Status.String()}
		if i < len(opts.RowInputs) {
			row.Go = opts.RowInputs[i]
		}
		switch {
		case len(r.Messages) > 0 || r.PanicAt != "":
			row.Result = strings.Join(r.Messages, "\n")
			if r.PanicAt != "" {
				row.Result += " (at " + Rel(opts.Dir, r.PanicAt) + ")"
			}
		case len(r.Outputs) > 0 && len(r.Outputs) == len(outLeaves):
			row.Result = explore.InputText(outLeaves, r.Outputs)
		}
		rows = append(rows, row)
	}
	return sites, rows
}
