module github.com/wallet-sandbox/wallet-sandbox/clients/go

go 1.19
