package fz

type Small uint8
