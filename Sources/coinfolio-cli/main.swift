import Coinfolio
print("coinfolio-cli \(Coinfolio.version)")
