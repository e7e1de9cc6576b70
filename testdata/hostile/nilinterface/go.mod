module example.com/nilinterface

go 1.22
