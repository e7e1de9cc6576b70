package ext

type Pair struct{ A, B int }

type Hidden struct {
	X int
	y int
}

type secret int

type Opaque secret

type Box struct{ S secret }
