print("porthole")
